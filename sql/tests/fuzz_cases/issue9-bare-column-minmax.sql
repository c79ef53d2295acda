-- Issue 9: a bare column next to min()/max() comes from the row that holds the min/max.
CREATE TABLE t(g, a, b)
----
INSERT INTO t VALUES (1, 5, 'five'), (1, 9, 'nine'), (1, 2, 'two'), (2, 7, 'seven'), (2, NULL, 'null')
----
SELECT g, max(a), b FROM t GROUP BY g
----
SELECT g, min(a), b FROM t GROUP BY g
----
SELECT max(a), b FROM t
----
SELECT min(a), max(a), b FROM t
----
SELECT b, count(*) FROM t GROUP BY g
