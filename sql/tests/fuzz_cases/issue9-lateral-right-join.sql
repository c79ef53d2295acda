-- Issue 9 (fuzzer): RIGHT and FULL JOIN of a table-valued function whose arguments read the joined tables: the
-- matched rows, the left rows FULL keeps, then (SQLite's right-join loop) the rows of one more call with the joined
-- columns NULL that no row matched.
CREATE TABLE t(a, j)
----
INSERT INTO t VALUES (1, '[10,20]'), (2, '[30]'), (3, NULL)
----
SELECT t.a, e.value FROM t RIGHT JOIN json_each(t.j) AS e ON e.value > 15
----
SELECT t.a, e.value FROM t FULL JOIN json_each(t.j) AS e ON e.value > 15
----
SELECT t.a, e.value FROM t FULL JOIN json_each(coalesce(t.j, '[7,30]')) AS e ON 1
----
SELECT t.a, e.value FROM t RIGHT JOIN json_each(coalesce(t.j, '[7,30]')) AS e ON e.value = 30
----
SELECT t.a, e.key FROM t FULL JOIN json_tree(t.j) AS e ON 0
----
SELECT count(*) FROM t RIGHT JOIN json_each(t.j) AS e ON NULL
----
SELECT t.a, e.value FROM t FULL JOIN json_each(t.j) AS e ON e.value > 15 WHERE e.value IS NULL
