-- Issue 9: count(*) FILTER (WHERE …) was silently ignored.
CREATE TABLE t(a, b)
----
INSERT INTO t VALUES (1, 'x'), (2, 'y'), (3, 'x'), (NULL, 'x')
----
SELECT count(*) FILTER (WHERE a > 1), count(a) FILTER (WHERE b = 'x'), sum(a) FILTER (WHERE 0), group_concat(a) FILTER (WHERE a <> 2) FROM t
----
SELECT b, count(*) FILTER (WHERE a IS NOT NULL) FROM t GROUP BY b
