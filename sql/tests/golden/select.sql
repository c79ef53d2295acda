# SELECT: WHERE, expressions, ORDER BY (positions, aliases, expressions,
# DESC, NULLs first), LIMIT/OFFSET, DISTINCT, column names.

statement ok
CREATE TABLE t(a INTEGER, b TEXT, c REAL)

statement ok
INSERT INTO t VALUES (3, 'c', 1.5), (1, 'a', NULL), (2, 'b', 2.25), (NULL, 'n', 0.5), (2, 'bb', 2.25)

query
SELECT a, b FROM t WHERE a > 1 ORDER BY a, b
----
2|b
2|bb
3|c

query
SELECT a FROM t ORDER BY a
----
NULL
1
2
2
3

query
SELECT a FROM t ORDER BY a DESC
----
3
2
2
1
NULL

query
SELECT b, a * 10 AS x FROM t ORDER BY x DESC, 1 LIMIT 2
----
c|30
b|20

query
SELECT b FROM t ORDER BY a, b LIMIT 2 OFFSET 2
----
b
bb

query
SELECT b FROM t ORDER BY b LIMIT 1, 2
----
b
bb

query
SELECT b FROM t ORDER BY c DESC, b
----
b
bb
c
n
a

query
SELECT DISTINCT a FROM t ORDER BY 1
----
NULL
1
2
3

query
SELECT DISTINCT c FROM t WHERE c IS NOT NULL ORDER BY c
----
0.5
1.5
2.25

query cols
SELECT a, t.b, a + 1, c AS cee, count(*) FROM t WHERE a = 1
----
a|b|a + 1|cee|count(*)
1|a|2|NULL|1

query
SELECT 1 + 2 * 3, 7 / 2, 7 % 3, 7.0 / 2, -7 / 2, 'x' || 1 || NULL
----
7|3|1|3.5|-3|NULL

query
SELECT b FROM t WHERE b LIKE 'B%' ORDER BY b
----
b
bb

query
SELECT b FROM t WHERE b GLOB 'b*' ORDER BY b
----
b
bb

query
SELECT b FROM t WHERE a BETWEEN 2 AND 3 ORDER BY b
----
b
bb
c

query
SELECT b FROM t WHERE a NOT BETWEEN 2 AND 3 ORDER BY b
----
a

query
SELECT b FROM t WHERE a IN (1, 3) ORDER BY b
----
a
c

query
SELECT CASE WHEN a > 2 THEN 'big' WHEN a > 1 THEN 'mid' ELSE 'small' END, CASE a WHEN 1 THEN 'one' END FROM t ORDER BY b
----
small|one
mid|NULL
mid|NULL
big|NULL
small|NULL

query
SELECT CAST('12abc' AS INTEGER), CAST(3.9 AS INTEGER), CAST(5 AS TEXT) || 'x', CAST('1.5' AS REAL)
----
12|3|5x|1.5

query
SELECT abs(-4), coalesce(NULL, NULL, 3), ifnull(NULL, 'd'), nullif(2, 2), length('héllo'), lower('AbC'), upper('abc'), substr('abcdef', 2, 3), trim('  x  '), replace('aaa', 'a', 'b'), round(2.567, 2), typeof(1.0), instr('hello', 'l'), hex('AB'), max(1, 5, 3), min(4, 2)
----
4|3|d|NULL|5|abc|ABC|bcd|x|bbb|2.57|real|3|4142|5|2

query
SELECT rowid, oid, _rowid_ FROM t WHERE b = 'c'
----
1|1|1

query
SELECT 'a' = 'a', 1 = 1.0, 'abc' < 'abd', NULL = NULL, NULL IS NULL, 1 IS NOT 2
----
1|1|1|NULL|1|1

query
SELECT * FROM (SELECT a, b FROM t WHERE a = 3) AS s
----
3|c

query
SELECT x.b FROM t AS x WHERE x.a = 1
----
a

query
VALUES (1, 'a'), (2, 'b')
----
1|a
2|b

query
SELECT b FROM t ORDER BY length(b) DESC, b LIMIT 1
----
bb

query
SELECT b FROM t LIMIT 0
----

statement error no such column
SELECT nope FROM t

statement error no such table
SELECT * FROM nope

query cols
SELECT a+1,  upper( b ) , -a, 'x' FROM t WHERE a = 1
----
a+1|upper( b )|-a|'x'
2|A|-1|x

query
SELECT *, a * 2 AS dbl FROM t WHERE a IS NOT NULL ORDER BY dbl DESC, b LIMIT 3
----
3|c|1.5|6
2|b|2.25|4
2|bb|2.25|4

query
SELECT a * 2 AS dbl, count(*) FROM t GROUP BY dbl HAVING dbl > 2 ORDER BY dbl
----
4|2
6|1
