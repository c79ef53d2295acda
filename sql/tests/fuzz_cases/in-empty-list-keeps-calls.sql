-- x IN () whose x calls a function: SQLite keeps x as 'false AND x'
-- ('true OR x'): resolved (aggregates placed, unknown functions refused),
-- never evaluated; other x are dropped unresolved (CI seeds 141, 144).
CREATE TABLE t(a, b)
----
INSERT INTO t VALUES (1, 2), (3, 4)
----
SELECT max(a) IN () FROM t
----
SELECT abs(a) NOT IN (), b FROM t
----
SELECT nosuch IN () FROM t
----
SELECT nosuch(a) IN () FROM t
----
SELECT a FROM t WHERE abs(b) IN ()
----
SELECT count(*) FROM t WHERE (SELECT max(a) FROM t) IN ()
----
SELECT (a LIKE 'x') IN (), a GLOB 'y' NOT IN () FROM t
