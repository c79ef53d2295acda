-- Issue 9: unknown functions and wrong arity are errors when the statement is prepared, even on an empty table.
CREATE TABLE t(a)
----
SELECT nosuch(a) FROM t
----
SELECT abs(a, a) FROM t WHERE 0
----
SELECT count(a, a) FROM t
----
SELECT substr(a) FROM t
----
SELECT max() FROM t
