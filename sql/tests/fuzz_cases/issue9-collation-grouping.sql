-- Issue 9: DISTINCT, GROUP BY, set operations and joins honour the column's collation.
CREATE TABLE t(c TEXT COLLATE NOCASE, r TEXT COLLATE RTRIM, b TEXT)
----
INSERT INTO t VALUES ('a', 'x', 'a'), ('A', 'x  ', 'A'), ('b', 'y', 'b')
----
SELECT DISTINCT c FROM t
----
SELECT c, count(*) FROM t GROUP BY c
----
SELECT r, count(*) FROM t GROUP BY r
----
SELECT count(DISTINCT c), count(DISTINCT b), count(DISTINCT b COLLATE NOCASE) FROM t
----
SELECT c FROM t UNION SELECT b FROM t
----
SELECT b FROM t UNION SELECT c FROM t
----
SELECT b FROM t INTERSECT SELECT c FROM t
----
SELECT c FROM t EXCEPT SELECT b FROM t
----
SELECT x.b, y.c FROM t x JOIN t y ON x.b = y.c
----
SELECT b FROM t GROUP BY b COLLATE NOCASE
