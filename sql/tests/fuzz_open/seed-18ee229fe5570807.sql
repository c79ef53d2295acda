-- seed 1796411371510237191: Rows at statement 3 (memory store)
--     sqlite: 15 rows
--       [Text("y "), Text("y ")]
--       [Text("y"), Text("y")]
--       [Text("[a-c]*"), Text("[a-c]*")]
--       [Text("A"), Text("A")]
--       [Integer(9223372036854775806), Integer(9223372036854775806)]
--       [Integer(2147483647), Integer(2147483647)]
--       [Integer(100000), Integer(100000)]
--       [Integer(1000), Integer(1000)]
--       [Integer(8), Integer(8)]
--       [Integer(1), Integer(1)]
--       [Integer(1), Integer(1)]
--       [Real(1.5180672894508987e-35), Integer(1)]
--     asadb:  15 rows
--       [Text("y "), Text("y ")]
--       [Text("y"), Text("y")]
--       [Text("[a-c]*"), Text("[a-c]*")]
--       [Text("A"), Text("A")]
--       [Integer(9223372036854775806), Integer(9223372036854775806)]
--       [Integer(2147483647), Integer(2147483647)]
--       [Integer(100000), Integer(100000)]
--       [Integer(1000), Integer(1000)]
--       [Integer(8), Integer(8)]
--       [Integer(1), Integer(1)]
--       [Integer(1), Integer(1)]
--       [Real(1.5180672894508987e-35), Integer(1)]
--   shrunk session:
--     CREATE TABLE t1(c0 BIGINT, c1 VARCHAR(10));
--     INSERT INTO t1 VALUES (1e3, 'a'), (2147483647, '1 '), ('1 ', 'abc'), (0.151806728945089886206923794224573882182e-34, 3.14159), ('y ', '%b%'), ('[a-c]*', 'abc'), (8, '9223372036854775808'), ('y', 'y');
--     REPLACE INTO t1 VALUES (-1e308, 1), (9223372036854775806, -3), (1.0, -9.3e18), (-2, 'abc'), (NULL, 'abc'), ('A', 'y '), ('1e5', 2147483647);
--     SELECT a10.c0, max(a10.c0) OVER (ORDER BY a10.c0 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t1 AS a10;
CREATE TABLE t1(c0 BIGINT, c1 VARCHAR(10))
----
INSERT INTO t1 VALUES (1e3, 'a'), (2147483647, '1 '), ('1 ', 'abc'), (0.151806728945089886206923794224573882182e-34, 3.14159), ('y ', '%b%'), ('[a-c]*', 'abc'), (8, '9223372036854775808'), ('y', 'y')
----
REPLACE INTO t1 VALUES (-1e308, 1), (9223372036854775806, -3), (1.0, -9.3e18), (-2, 'abc'), (NULL, 'abc'), ('A', 'y '), ('1e5', 2147483647)
----
SELECT a10.c0, max(a10.c0) OVER (ORDER BY a10.c0 DESC RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) FROM t1 AS a10
