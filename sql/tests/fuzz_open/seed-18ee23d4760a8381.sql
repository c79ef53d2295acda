-- seed 1796412696787846017: Rows at statement 4 (memory store)
--     sqlite: 2 rows
--       [Integer(7), Text("1e5"), Null]
--       [Text("€"), Integer(-3), Null]
--     asadb:  2 rows
--       [Integer(7), Blob([195, 167]), Null]
--       [Text("€"), Text("1e5"), Null]
--   shrunk session:
--     CREATE TABLE t0(c0 BIGINT, c1 FLOAT, c2 BLOB, c3 UNIQUE, UNIQUE (c0, c1));
--     INSERT INTO t0 VALUES ('y ', 'Müller', 7, X'C3A7');
--     INSERT OR IGNORE INTO t0 VALUES (3.14159, 0, CAST(X'E282AC' AS TEXT), -3);
--     UPDATE OR IGNORE t0 SET c3 = '1e5', c1 = 9.2e18 WHERE X'41' > c0;
--     SELECT a00.c2, a00.c3, NULL FROM t0 AS a00 ORDER BY 1, 2, 3;
CREATE TABLE t0(c0 BIGINT, c1 FLOAT, c2 BLOB, c3 UNIQUE, UNIQUE (c0, c1))
----
INSERT INTO t0 VALUES ('y ', 'Müller', 7, X'C3A7')
----
INSERT OR IGNORE INTO t0 VALUES (3.14159, 0, CAST(X'E282AC' AS TEXT), -3)
----
UPDATE OR IGNORE t0 SET c3 = '1e5', c1 = 9.2e18 WHERE X'41' > c0
----
SELECT a00.c2, a00.c3, NULL FROM t0 AS a00 ORDER BY 1, 2, 3
