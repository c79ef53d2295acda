-- seed 1796411371510241890: OursSucceeded at statement 2 (memory store)
--     sqlite: Err("malformed JSON")
--     asadb:  1 rows
--       [Text(" 12abc"), Integer(1)]
--   shrunk session:
--     CREATE TABLE t1(c0 COLLATE NOCASE, c1 TEXT, c2 DOUBLE COLLATE RTRIM, c3);
--     REPLACE INTO t1 VALUES (1234567890123456789012345678901234567890, 'abc', 2, 'y ');
--     SELECT ' 12abc', (0xFFFFFFFFFFFFFFFF NOT BETWEEN 7 AND 0 & json_patch(a00.c3, '42')) FROM t1 AS a00 ORDER BY 1, 2;
CREATE TABLE t1(c0 COLLATE NOCASE, c1 TEXT, c2 DOUBLE COLLATE RTRIM, c3)
----
REPLACE INTO t1 VALUES (1234567890123456789012345678901234567890, 'abc', 2, 'y ')
----
SELECT ' 12abc', (0xFFFFFFFFFFFFFFFF NOT BETWEEN 7 AND 0 & json_patch(a00.c3, '42')) FROM t1 AS a00 ORDER BY 1, 2
