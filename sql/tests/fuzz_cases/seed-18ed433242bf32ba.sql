-- seed 1796165709537948346: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t1(c0 INTEGER, c1 INTEGER, c2 INT, c3 INTEGER);
--     INSERT INTO t1 VALUES (-1e308, NULL, -5, 3);
--     SELECT a01.c2, a00.c3 FROM t1 AS a00 JOIN t1 AS a01 ON 0 INTERSECT SELECT 0x7FFFFFFFFFFFFFFF, a10.c1 AS "😀1" FROM t1 AS a10 WHERE (SELECT avg(DISTINCT a10.atom) FROM json_tree('[1,2') AS a10) <> 'ABC' ORDER BY 1, 2 DESC;
CREATE TABLE t1(c0 INTEGER, c1 INTEGER, c2 INT, c3 INTEGER)
----
INSERT INTO t1 VALUES (-1e308, NULL, -5, 3)
----
SELECT a01.c2, a00.c3 FROM t1 AS a00 JOIN t1 AS a01 ON 0 INTERSECT SELECT 0x7FFFFFFFFFFFFFFF, a10.c1 AS "😀1" FROM t1 AS a10 WHERE (SELECT avg(DISTINCT a10.atom) FROM json_tree('[1,2') AS a10) <> 'ABC' ORDER BY 1, 2 DESC
