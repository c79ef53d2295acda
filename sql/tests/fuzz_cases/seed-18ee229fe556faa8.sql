-- seed 1796411371510233768: Rows at statement 1 (memory store)
--     sqlite: 1 rows
--       [Integer(0), Real(1e308)]
--     asadb:  0 rows
--   shrunk session:
--     CREATE TABLE t0(c0 CLOB, c1 REAL COLLATE NOCASE UNIQUE DEFAULT 1.5, UNIQUE (c0, c1));
--     SELECT (SELECT count(a00.c0) FILTER (WHERE EXISTS (SELECT a10.c0 FROM t0 AS a10)) FROM json_tree('[1,[2,[3,[4]]],{"a":[5]}]') AS a10), 1e308 FROM t0 AS a00 ORDER BY 1 DESC, 2;
CREATE TABLE t0(c0 CLOB, c1 REAL COLLATE NOCASE UNIQUE DEFAULT 1.5, UNIQUE (c0, c1))
----
SELECT (SELECT count(a00.c0) FILTER (WHERE EXISTS (SELECT a10.c0 FROM t0 AS a10)) FROM json_tree('[1,[2,[3,[4]]],{"a":[5]}]') AS a10), 1e308 FROM t0 AS a00 ORDER BY 1 DESC, 2
