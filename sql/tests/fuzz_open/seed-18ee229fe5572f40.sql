-- seed 1796411371510247232: Rows at statement 3 (memory store)
--     sqlite: 1 rows
--       [Real(0.3333333333333333), Integer(4), Integer(3)]
--     asadb:  1 rows
--       [Real(4.333333333333333), Integer(4), Integer(3)]
--   shrunk session:
--     CREATE TABLE t1(c0 BOOLEAN COLLATE NOCASE, c1 INT UNIQUE, c2 FLOAT DEFAULT 'x', UNIQUE (c0, c1));
--     INSERT OR REPLACE INTO t1 VALUES ('abc', '0x10', ' 12abc'), (1e400, '10', 'ABC'), (1, '10', ' 1'), ('Müller', '', '1.5'), (0.5, 0.0, 0), (-9.3e18, 8, 'x');
--     UPDATE OR REPLACE t1 SET c1 = (3.14159 >> c0) WHERE c1 < '😀';
--     SELECT avg(a00.c2), sum(DISTINCT a00.c1), count(*) FROM t1 AS a00;
CREATE TABLE t1(c0 BOOLEAN COLLATE NOCASE, c1 INT UNIQUE, c2 FLOAT DEFAULT 'x', UNIQUE (c0, c1))
----
INSERT OR REPLACE INTO t1 VALUES ('abc', '0x10', ' 12abc'), (1e400, '10', 'ABC'), (1, '10', ' 1'), ('Müller', '', '1.5'), (0.5, 0.0, 0), (-9.3e18, 8, 'x')
----
UPDATE OR REPLACE t1 SET c1 = (3.14159 >> c0) WHERE c1 < '😀'
----
SELECT avg(a00.c2), sum(DISTINCT a00.c1), count(*) FROM t1 AS a00
