-- seed 1796412696787851596: OursFailed at statement 2 (memory store)
--     sqlite: Affected(1)
--     asadb:  Err("misuse of aggregate: avg()")
--   shrunk session:
--     CREATE TABLE t1(c0 NUMERIC, c1 BIGINT, c2 NUMERIC, PRIMARY KEY (c1)) WITHOUT ROWID;
--     CREATE TABLE t2(c0 BOOLEAN, c1 BOOLEAN, c2 TEXT, c3 CLOB);
--     INSERT OR REPLACE INTO t1 VALUES (10, 'y ', 6) ON CONFLICT DO UPDATE SET c0 = max(c2, (SELECT avg(excluded.c1) FROM t2 AS a10));
CREATE TABLE t1(c0 NUMERIC, c1 BIGINT, c2 NUMERIC, PRIMARY KEY (c1)) WITHOUT ROWID
----
CREATE TABLE t2(c0 BOOLEAN, c1 BOOLEAN, c2 TEXT, c3 CLOB)
----
INSERT OR REPLACE INTO t1 VALUES (10, 'y ', 6) ON CONFLICT DO UPDATE SET c0 = max(c2, (SELECT avg(excluded.c1) FROM t2 AS a10))
