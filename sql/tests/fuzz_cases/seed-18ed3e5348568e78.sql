-- seed 1796160353807535736: OursFailed at statement 1 (memory store)
--     sqlite: Affected(5)
--     asadb:  Err("too large: database or disk is full")
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2));
--     INSERT OR REPLACE INTO t1 VALUES ('10', 'ABC'), (3, 9223372036854775806), (1e3, -2), (9223372036854775807, '[a-c]*'), (NULL, 'abc');
CREATE TABLE t1(c0 INTEGER PRIMARY KEY, c1 DECIMAL(10,2))
----
INSERT OR REPLACE INTO t1 VALUES ('10', 'ABC'), (3, 9223372036854775806), (1e3, -2), (9223372036854775807, '[a-c]*'), (NULL, 'abc')
