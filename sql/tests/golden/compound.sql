# Compound selects: UNION [ALL], EXCEPT, INTERSECT, with ORDER BY / LIMIT
# on the whole compound.

statement ok
CREATE TABLE a(x)

statement ok
CREATE TABLE b(x)

statement ok
INSERT INTO a VALUES (1), (2), (2), (3), (NULL)

statement ok
INSERT INTO b VALUES (2), (3), (4), (NULL)

query
SELECT x FROM a UNION SELECT x FROM b
----
NULL
1
2
3
4

query
SELECT x FROM a UNION ALL SELECT x FROM b ORDER BY 1
----
NULL
NULL
1
2
2
2
3
3
4

query
SELECT x FROM a EXCEPT SELECT x FROM b
----
1

query
SELECT x FROM a INTERSECT SELECT x FROM b
----
NULL
2
3

query
SELECT x FROM a UNION SELECT x FROM b ORDER BY x DESC LIMIT 2
----
4
3

query
SELECT x FROM a UNION SELECT x FROM b EXCEPT SELECT 4 ORDER BY 1 LIMIT 3 OFFSET 1
----
1
2
3

query cols
SELECT x AS y FROM a WHERE x = 1 UNION ALL SELECT 10
----
y
1
10

statement error same number of result columns
SELECT 1 UNION SELECT 1, 2

statement error does not match any column
SELECT x FROM a UNION SELECT x FROM b ORDER BY zzz

query
SELECT count(*) FROM (SELECT x FROM a UNION SELECT x FROM b)
----
5
