-- Issue 9 (fuzzer): x IN (SELECT y …) compares under the left column's own collation (BINARY by default) unless
-- the subquery's column is written with a COLLATE of its own (sqlite3BinaryCompareCollSeq); a NOCASE column of the
-- subquery only counts when the left side has no collation (a literal, an expression).
CREATE TABLE a(x)
----
CREATE TABLE b(y COLLATE NOCASE)
----
INSERT INTO a VALUES ('X'), ('x'), ('Y')
----
INSERT INTO b VALUES ('x')
----
SELECT x, x IN (SELECT y FROM b) FROM a
----
SELECT x, x IN (SELECT y COLLATE NOCASE FROM b) FROM a
----
SELECT x, 'X' IN (SELECT y FROM b) FROM a
----
SELECT x, x IN (SELECT (y COLLATE NOCASE) || '' FROM b) FROM a
----
SELECT x, x IN (SELECT z FROM (SELECT y COLLATE NOCASE AS z FROM b)) FROM a
----
SELECT x, (x || '') IN (SELECT y FROM b) FROM a
----
SELECT x, x NOT IN (WITH w(v) AS (SELECT y FROM b) SELECT v FROM w) FROM a
----
WITH w(v) AS (SELECT y FROM b) DELETE FROM a WHERE x NOT IN (SELECT v FROM w WHERE v IS NOT NULL)
----
SELECT * FROM a
