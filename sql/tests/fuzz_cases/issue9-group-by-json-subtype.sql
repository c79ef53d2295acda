-- Issue 9 (fuzzer): in a GROUP BY query a table-valued function's column reaches an aggregate through SQLite's
-- sorter, which drops its JSON subtype (json_group_array(j.value) … GROUP BY holds an array element as a string); a
-- function call in the argument is computed after the sorter and keeps it; without GROUP BY nothing is dropped.
SELECT json_group_array(value ORDER BY value), json_group_array(value) FROM json_each('[[16,0.5],{"a":1},3]')
----
SELECT json_group_array(value) FROM json_each('[[16,0.5],{"a":1},3]') GROUP BY 'x'
----
SELECT type, json_group_array(value ORDER BY value) FROM json_each('[[16,0.5],{"a":1},3]') GROUP BY type
----
SELECT type, json_group_array(json(value)) FROM json_each('[[16,0.5],{"a":1},3]') GROUP BY type
----
SELECT path, json_group_array(value ORDER BY value, typeof(value)) FROM json_each('{"a":{"b":{"c":"deep"}}}') GROUP BY path
----
SELECT json_group_object(key, value) FROM json_each('{"b":[1],"a":{"x":2}}') GROUP BY 1 = 1
----
CREATE TABLE t(a)
----
INSERT INTO t VALUES ('[1]'), ('{}')
----
SELECT json_group_array(json(a)) FROM t GROUP BY a
----
SELECT json_group_array(json(a) ORDER BY a) FROM t
----
SELECT json_group_array(json(a) ORDER BY a) FROM t GROUP BY 1 = 1
