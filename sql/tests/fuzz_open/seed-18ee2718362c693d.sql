-- seed 1796416286308985149: Rows at statement 7 (memory store)
--     sqlite: 12 rows
--       [Text("-1.0e+308"), Text("1.5180672894508987e-35"), Text("1.5180672894508987e-35")]
--       [Text("-1.0e+308"), Text("0.0"), Text("0.0")]
--       [Text("-1.0e+308"), Text("16"), Text("16")]
--       [Text("-1.0e+308"), Text("100"), Text("100")]
--       [Text("-1.0e+308"), Text("X"), Text("X")]
--       [Text("-1.0e+308"), Text("1"), Text("1")]
--       [Text("-1.0e+308"), Text("y"), Text("y")]
--       [Text("-1.0e+308"), Text("9223372036854775807"), Text("9223372036854775807")]
--       [Text("-1.0e+308"), Text("7"), Text("7")]
--       [Text("-1.0e+308"), Text("6"), Text("7")]
--       [Text("-1.0e+308"), Text("X"), Text("X")]
--       [Text("-1.0e+308"), Text(""), Text("")]
--     asadb:  12 rows
--       [Text("-1.0e+308"), Text("1.5180672894508987e-35"), Text("1.5180672894508987e-35")]
--       [Text("-1.0e+308"), Text("0.0"), Text("0.0")]
--       [Text("-1.0e+308"), Text("16"), Text("16")]
--       [Text("-1.0e+308"), Text("100"), Text("100")]
--       [Text("-1.0e+308"), Text("X"), Text("X")]
--       [Text("-1.0e+308"), Text("1"), Text("X")]
--       [Text("-1.0e+308"), Text("y"), Text("y")]
--       [Text("-1.0e+308"), Text("9223372036854775807"), Text("9223372036854775807")]
--       [Text("-1.0e+308"), Text("7"), Text("7")]
--       [Text("-1.0e+308"), Text("6"), Text("7")]
--       [Text("-1.0e+308"), Text("X"), Text("X")]
--       [Text("-1.0e+308"), Text(""), Text("")]
--   shrunk session:
--     CREATE TABLE t0(c0 BOOLEAN DEFAULT 'x', c1 VARCHAR(10));
--     INSERT INTO t0 VALUES (CAST(X'FF' AS TEXT), 0.151806728945089886206923794224573882182e-34), (9223372036854775808, 'X'), (-1e308, ''), ('10', 'y'), (4, 7), ('Abc', 0x10);
--     INSERT INTO t0 VALUES ('1 ', 'X'), (' 12abc', 100), (9223372036854775807, '1'), (7, 9223372036854775807), (3.14159, 6), ('x', 0.0);
--     CREATE TABLE t1(c0 TEXT COLLATE NOCASE, c1 CLOB, c2 VARCHAR(10), c3 TEXT, UNIQUE (c0, c1));
--     INSERT INTO t1 VALUES (-1e308, 0.0, 6, 1e400);
--     CREATE TABLE t2(c0 CLOB COLLATE RTRIM, c1 FLOAT, c2 INT, c3 VARCHAR(10), c4 FLOAT, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT INTO t2 VALUES (1234567890123456789012345678901234567890, 'x', 0x10, 0.0, 'x');
--     SELECT a00.c0, a02.c1, max(a02.c1) OVER (ORDER BY a02.c0 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t1 AS a00, t2 AS a01 CROSS JOIN t0 AS a02;
CREATE TABLE t0(c0 BOOLEAN DEFAULT 'x', c1 VARCHAR(10))
----
INSERT INTO t0 VALUES (CAST(X'FF' AS TEXT), 0.151806728945089886206923794224573882182e-34), (9223372036854775808, 'X'), (-1e308, ''), ('10', 'y'), (4, 7), ('Abc', 0x10)
----
INSERT INTO t0 VALUES ('1 ', 'X'), (' 12abc', 100), (9223372036854775807, '1'), (7, 9223372036854775807), (3.14159, 6), ('x', 0.0)
----
CREATE TABLE t1(c0 TEXT COLLATE NOCASE, c1 CLOB, c2 VARCHAR(10), c3 TEXT, UNIQUE (c0, c1))
----
INSERT INTO t1 VALUES (-1e308, 0.0, 6, 1e400)
----
CREATE TABLE t2(c0 CLOB COLLATE RTRIM, c1 FLOAT, c2 INT, c3 VARCHAR(10), c4 FLOAT, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT INTO t2 VALUES (1234567890123456789012345678901234567890, 'x', 0x10, 0.0, 'x')
----
SELECT a00.c0, a02.c1, max(a02.c1) OVER (ORDER BY a02.c0 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t1 AS a00, t2 AS a01 CROSS JOIN t0 AS a02
