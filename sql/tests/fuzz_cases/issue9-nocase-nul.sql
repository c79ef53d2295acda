-- Issue 9 (fuzzer): NOCASE compares no further than a NUL, then by length (sqlite3StrNICmp); grouping, DISTINCT,
-- hash joins and index keys fold texts the same way.
CREATE TABLE n(a TEXT COLLATE NOCASE, b)
----
INSERT INTO n VALUES (char(0, 65), 1), (char(0, 66), 2), (char(0), 3), ('A' || char(0) || 'x', 4), ('a' || char(0) || 'y', 5), (char(0, 0), 6)
----
SELECT count(*) FROM n AS x JOIN n AS y ON x.a = y.a
----
SELECT count(DISTINCT a) FROM n
----
SELECT count(*), group_concat(b) FROM n GROUP BY a ORDER BY 1, 2
----
SELECT x.b, y.b FROM n AS x JOIN n AS y ON x.a = y.a AND x.b < y.b ORDER BY 1, 2
----
CREATE INDEX ni ON n(a)
----
SELECT b FROM n WHERE a = char(0, 90) ORDER BY 1
----
SELECT count(*) FROM n AS x JOIN n AS y ON x.a = y.a
