# NULL three-valued logic: AND/OR/NOT, comparisons, IN with NULLs, IS,
# aggregates and DISTINCT over NULLs.

query
SELECT NULL AND 0, NULL AND 1, NULL OR 1, NULL OR 0, NOT NULL
----
0|NULL|1|NULL|NULL

query
SELECT 1 IN (1, NULL), 2 IN (1, NULL), 2 NOT IN (1, NULL), NULL IN (1), NULL IN ()
----
1|NULL|NULL|NULL|0

query
SELECT NULL IS NULL, NULL IS NOT NULL, 1 IS NULL, NULL IS 1, NULL IS NOT NULL
----
1|0|0|0|0

query
SELECT NULL + 1, NULL || 'x', -NULL, NULL = NULL, NULL <> 1, NULL < 1
----
NULL|NULL|NULL|NULL|NULL|NULL

query
SELECT CASE NULL WHEN NULL THEN 'eq' ELSE 'ne' END, CASE WHEN NULL THEN 'y' ELSE 'n' END
----
ne|n

statement ok
CREATE TABLE t(a)

statement ok
INSERT INTO t VALUES (NULL), (NULL), (1)

query
SELECT count(*), count(a), count(DISTINCT a), min(a), sum(a) FROM t
----
3|1|1|1|1

query
SELECT DISTINCT a FROM t ORDER BY a
----
NULL
1

query
SELECT count(*) FROM t WHERE a = NULL
----
0

query
SELECT count(*) FROM t WHERE a IS NULL
----
2

query
SELECT count(*) FROM t WHERE NOT (a = 1)
----
0

query
SELECT a, count(*) FROM t GROUP BY a ORDER BY a
----
NULL|2
1|1

query
SELECT coalesce(a, 'none') FROM t ORDER BY 1
----
1
none
none
