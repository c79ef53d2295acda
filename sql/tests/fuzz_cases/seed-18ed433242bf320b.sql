-- seed 1796165709537948171: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t0(c0 VARCHAR(10), c1 INT, c2 NUMERIC);
--     INSERT OR REPLACE INTO t0 VALUES ('a%', -1, '1 '), (0, ' 12abc', 'y '), ('0', 0.0, -2), ('a%', '', '😀'), (3, 4, 9223372036854775807);
--     SELECT a01.key FROM t0 AS a00 INNER JOIN json_each(a00.c1) AS a01 ON 1 WHERE NOT (EXISTS (SELECT a00.c2 FROM json_tree('[9223372036854775807,9223372036854775808,-0.0]') AS a10));
CREATE TABLE t0(c0 VARCHAR(10), c1 INT, c2 NUMERIC)
----
INSERT OR REPLACE INTO t0 VALUES ('a%', -1, '1 '), (0, ' 12abc', 'y '), ('0', 0.0, -2), ('a%', '', '😀'), (3, 4, 9223372036854775807)
----
SELECT a01.key FROM t0 AS a00 INNER JOIN json_each(a00.c1) AS a01 ON 1 WHERE NOT (EXISTS (SELECT a00.c2 FROM json_tree('[9223372036854775807,9223372036854775808,-0.0]') AS a10))
