-- seed 1796416286308976278: OursSucceeded at statement 3 (memory store)
--     sqlite: Err("integer overflow")
--     asadb:  4 rows
--       [Integer(-9223372036854775807)]
--       [Integer(-9223372036854775807)]
--       [Integer(-9223372036854775807)]
--       [Integer(-9223372036854775807)]
--   shrunk session:
--     CREATE TABLE t0(c0 BIGINT COLLATE NOCASE, c1 VARCHAR(10) CHECK (c1 IS NULL OR c1 <> 13), UNIQUE (c0, c1));
--     REPLACE INTO t0 VALUES (10, 1e400), (1e-308, 'X'), (CAST(X'FF' AS TEXT), -9.3e18), ('%', 'y '), ('1', 9.21e18), (X'4142', X'00'), ('1', -9223372036854775807);
--     CREATE INDEX i0 ON t0(c1);
--     SELECT (SELECT DISTINCT sum(CAST(a10.c1 AS INT)) FROM t0 AS a10) FROM json_tree('[9223372036854775807,9223372036854775808,-0.0]') AS a00;
CREATE TABLE t0(c0 BIGINT COLLATE NOCASE, c1 VARCHAR(10) CHECK (c1 IS NULL OR c1 <> 13), UNIQUE (c0, c1))
----
REPLACE INTO t0 VALUES (10, 1e400), (1e-308, 'X'), (CAST(X'FF' AS TEXT), -9.3e18), ('%', 'y '), ('1', 9.21e18), (X'4142', X'00'), ('1', -9223372036854775807)
----
CREATE INDEX i0 ON t0(c1)
----
SELECT (SELECT DISTINCT sum(CAST(a10.c1 AS INT)) FROM t0 AS a10) FROM json_tree('[9223372036854775807,9223372036854775808,-0.0]') AS a00
