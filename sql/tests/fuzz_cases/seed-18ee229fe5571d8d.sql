-- seed 1796411371510242701: OursFailed at statement 1 (memory store)
--     sqlite: Affected(1)
--     asadb:  Err("misuse of aggregate: avg()")
--   shrunk session:
--     CREATE TABLE t1(c0 CLOB, c1 REAL UNIQUE);
--     INSERT OR IGNORE INTO t1 VALUES ('10', 9223372036854775806) ON CONFLICT DO UPDATE SET c1 = c1 WHERE EXISTS (SELECT a10.c1 FROM t1 AS a10 GROUP BY a10.c1 HAVING avg(sign(excluded.c0)) > '0');
CREATE TABLE t1(c0 CLOB, c1 REAL UNIQUE)
----
INSERT OR IGNORE INTO t1 VALUES ('10', 9223372036854775806) ON CONFLICT DO UPDATE SET c1 = c1 WHERE EXISTS (SELECT a10.c1 FROM t1 AS a10 GROUP BY a10.c1 HAVING avg(sign(excluded.c0)) > '0')
