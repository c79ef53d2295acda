-- seed 1796412696787851800: OursFailed at statement 1 (memory store)
--     sqlite: Affected(1)
--     asadb:  Err("misuse of aggregate: max()")
--   shrunk session:
--     CREATE TABLE t1(c0 BLOB, c1 FLOAT UNIQUE, c2 REAL);
--     INSERT OR IGNORE INTO t1 VALUES (9223372036854775806, 'y', 'ABC') ON CONFLICT(c1) DO UPDATE SET c2 = c2 WHERE (excluded.c2, excluded.c1, excluded.c0) >= (SELECT avg(X''), max(DISTINCT (1234567890123456789012345678901234567890 * excluded.c0)), total(DISTINCT a10.parent) FROM json_each('true') AS a10);
CREATE TABLE t1(c0 BLOB, c1 FLOAT UNIQUE, c2 REAL)
----
INSERT OR IGNORE INTO t1 VALUES (9223372036854775806, 'y', 'ABC') ON CONFLICT(c1) DO UPDATE SET c2 = c2 WHERE (excluded.c2, excluded.c1, excluded.c0) >= (SELECT avg(X''), max(DISTINCT (1234567890123456789012345678901234567890 * excluded.c0)), total(DISTINCT a10.parent) FROM json_each('true') AS a10)
