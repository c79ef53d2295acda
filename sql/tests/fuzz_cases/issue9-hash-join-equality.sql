-- Issue 9: hash-join keys used an ad-hoc ±9.2e18 bound; one value equality for joins, IN, DISTINCT and GROUP BY.
CREATE TABLE a(x)
----
CREATE TABLE b(y)
----
INSERT INTO a VALUES (9210000000000000000), (9223372036854775807), (1)
----
INSERT INTO b VALUES (9.21e18), (9.21e18), (9223372036854775807.0), (1.0), ('1')
----
SELECT a.x, b.y FROM a JOIN b ON a.x = b.y
----
SELECT count(*) FROM a WHERE x IN (SELECT y FROM b)
----
SELECT DISTINCT y FROM b
----
SELECT y, count(*) FROM b GROUP BY y
