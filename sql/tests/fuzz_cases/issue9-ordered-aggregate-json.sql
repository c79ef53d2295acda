-- Issue 9 (fuzzer): an aggregate's ORDER BY sorts values, not their JSON subtype (SQLite's sorter):
-- json_group_array(x ORDER BY …) holds JSON text as a string.
SELECT json_group_array(value ORDER BY value), json_group_array(value) FROM json_each('[[16,0.5],{"a":1},3]')
----
SELECT path, json_group_array(value ORDER BY value, typeof(value)) FROM json_each('{"a":{"b":{"c":"deep"}}}') GROUP BY path
----
SELECT json_group_object(key, value ORDER BY key) FROM json_each('{"b":[1],"a":{"x":2}}')
