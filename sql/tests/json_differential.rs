//! SQLite's JSON functions against SQLite 3.54 (rusqlite, bundled), on our
//! memory store and our B+tree store: the examples of SQLite's json1
//! documentation, malformed input, JSON5, deep nesting, big numbers,
//! escapes, paths, the JSON subtype, aggregates over groups, json_each and
//! json_tree over tables (correlated), and a randomised generator of
//! documents, paths and edits.
//!
//! Invariants pinned: every value and its storage class equal SQLite's
//! (REALs by bits); where SQLite raises an error we raise the same
//! message; the column names equal SQLite's.

mod values_common;

use asadb_sql::session::{Engine, Outcome, Params, Session};
use asadb_sql::{Error, Value};
use values_common::{Lcg, row_key};

const SETUP: &[&str] = &[
    "CREATE TABLE docs(id INTEGER PRIMARY KEY, grp TEXT, doc TEXT)",
    "INSERT INTO docs VALUES \
     (1, 'a', '{\"name\":\"alpha\",\"tags\":[\"x\",\"y\"],\"n\":1,\"nested\":{\"k\":[1,2,{\"z\":null}]}}'), \
     (2, 'a', '{\"name\":\"beta\",\"tags\":[],\"n\":2.5,\"nested\":{\"k\":[]}}'), \
     (3, 'b', '[1,2,3,[4,5],{\"six\":6}]'), \
     (4, 'b', '{\"name\":\"gamma\",\"tags\":[\"z\"],\"n\":-7,\"phone\":[\"704-555-0100\",\"919-555-0101\"]}'), \
     (5, 'c', 'not json'), \
     (6, 'c', NULL), \
     (7, 'd', '\"just a string\"'), \
     (8, 'd', '{\"a b\":1,\"\\u00e9\":2,\"\":3,\"a.b\":4,\"a[0]\":5}')",
    "CREATE TABLE user(name TEXT, phone TEXT)",
    "INSERT INTO user VALUES ('ann', '[\"704-555-1234\",\"919-555-0000\"]'), \
     ('bob', '704-555-9999'), ('cy', '[\"212-555-1111\"]'), ('dee', NULL)",
    "CREATE TABLE big(json JSON)",
    "INSERT INTO big VALUES ('{\"id\":1,\"partlist\":[{\"uuid\":\"6fa5181e-5721-11e5-a04e-57f3d7b32808\"},{\"uuid\":\"x\"}]}'), \
     ('{\"id\":2,\"partlist\":[{\"uuid\":\"y\"}],\"deep\":{\"a\":[true,false,null,1.5e3]}}')",
    "CREATE TABLE empty(x TEXT)",
    "CREATE TABLE kv(g INTEGER, k TEXT, v)",
    "INSERT INTO kv VALUES (1, 'a', 1), (1, 'b', 'two'), (1, NULL, 3), (1, 'c', NULL), \
     (2, 'x', 1.5), (2, 'x', 2.5), (3, NULL, NULL)",
];

/// Single statements whose rows (in order) must equal SQLite's.
const CASES: &[&str] = &[
    // --- json() (documentation) ---
    "SELECT json(' { \"this\" : \"is\", \"a\": [ \"test\" ] } ')",
    "SELECT json('[1, 2.50, 1e400, -0, 0.0, 1E+2, -1.5e-3]')",
    "SELECT json('{\"a\":1,\"a\":2}')",
    "SELECT json('\"\\u0041\\n\"'), json('\"\\/\"')",
    "SELECT json(NULL), json(123), json(1.5), json('  null  '), json('true'), json('false')",
    "SELECT json('')",
    "SELECT json('[1,2')",
    "SELECT json('{\"a\":}')",
    "SELECT json('[1]x')",
    "SELECT json('[1]' || char(0) || 'junk')",
    "SELECT json(x'5b315d')",
    // JSON5.
    "SELECT json('{a:5, b:[1,2,], \"c\":0x1F,}')",
    "SELECT json('[.5, 5., +1, -.5, 1.e3, +0x10, -0XaF]')",
    "SELECT json('[Infinity, -Infinity, +inf, NaN, -nan, QNaN, snan, infinity]')",
    "SELECT json('[''single'', ''it\"s'', \"\\x41\\v\\0\", ''a\\''b'']')",
    "SELECT json('/* c */ [1, // line\n 2] /* end */')",
    "SELECT json('\"line\\\ncontinued\"')",
    "SELECT json(char(0xa0) || '[1]' || char(0x2028))",
    "SELECT json('{$a_1:1, _b:2, é:3}')",
    "SELECT json('{\\u0061b:1}')",
    "SELECT json('\"\\0\"'), json('\"\\01\"')",
    "SELECT json('[1,,2]'), json('[,]')",
    "SELECT json('01'), json('-01'), json('1.'), json('.'), json('-'), json('1e'), json('1e+')",
    "SELECT json('{nan:1}')",
    "SELECT json('\"tab\there\"')",
    "SELECT json('[0x]'), json('[0xffffffffffffffffff]'), json('[-0x8000000000000000]')",
    // --- json_valid ---
    "SELECT json_valid('{\"x\":35}'), json_valid('{\"x\":35'), json_valid(NULL), json_valid('')",
    "SELECT json_valid('{x:35}'), json_valid('{x:35}', 6), json_valid('{x:35}', 2), json_valid('{\"x\":35}', 1)",
    "SELECT json_valid('[1,]', 1), json_valid('[1,]', 2), json_valid(jsonb('[1]')), json_valid(jsonb('[1]'), 4)",
    "SELECT json_valid(jsonb('[1]'), 8), json_valid(x'0b', 8), json_valid(x'00', 4), json_valid(x'3b31', 8)",
    "SELECT json_valid('1', 0)",
    "SELECT json_valid('1', 16)",
    "SELECT json_valid('1', '3'), json_valid(123), json_valid(1.5), json_valid(NULL, 1)",
    // --- json_type ---
    "SELECT json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}')",
    "SELECT json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$')",
    "SELECT json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a')",
    "SELECT json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[0]'), \
     json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[1]'), \
     json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[2]'), \
     json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[3]'), \
     json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[4]'), \
     json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[5]'), \
     json_type('{\"a\":[2,3.5,true,false,null,\"x\"]}','$.a[6]')",
    "SELECT json_type('[0x10, .5]', '$[0]'), json_type('[0x10, .5]', '$[1]'), json_type(NULL), json_type('1', NULL)",
    "SELECT json_type('{}', 'a')",
    "SELECT json_type('{', '$')",
    // --- json_array / json_object / json_quote ---
    "SELECT json_array(1,2,'3',4), json_array('[1,2]'), json_array(json_array(1,2))",
    "SELECT json_array(1,null,'3','[4,5]','{\"six\":7.7}')",
    "SELECT json_array(1,null,'3',json('[4,5]'),json('{\"six\":7.7}'))",
    "SELECT json_array(), json_array(0.1, 1e300, -2.5e-300, 100.0, 1e15, 1e16, 1e400, -1e400)",
    "SELECT json_array('a\"b\\c', char(1), char(10), char(127), 'é', '''')",
    "SELECT json_array(x'00')",
    "SELECT json_array(jsonb('{\"a\":[1]}'))",
    "SELECT json_object('a',2,'c',4), json_object('a',2,'c','{e:5}'), json_object('a',2,'c',json_object('e',5))",
    "SELECT json_object(), json_object('a', NULL, 'a', 1)",
    "SELECT json_object('a')",
    "SELECT json_object(1, 2)",
    "SELECT json_object('a', x'01')",
    "SELECT json_quote(3.14159), json_quote('verdant'), json_quote('[1]'), json_quote(json('[1]')), json_quote('[1,')",
    "SELECT json_quote(NULL), json_quote(1), json_quote(-0.0), json_quote(1e400), typeof(json_quote(1))",
    "SELECT json_quote(x'00')",
    // --- json_array_length ---
    "SELECT json_array_length('[1,2,3,4]'), json_array_length('[1,2,3,4]', '$'), json_array_length('[1,2,3,4]', '$[2]')",
    "SELECT json_array_length('{\"one\":[1,2,3]}'), json_array_length('{\"one\":[1,2,3]}', '$.one'), \
     json_array_length('{\"one\":[1,2,3]}', '$.two')",
    "SELECT json_array_length('[]'), json_array_length(NULL), json_array_length('[1]', NULL)",
    "SELECT json_array_length('[1]', 'x')",
    "SELECT json_array_length('[1')",
    // --- json_extract (documentation) ---
    "SELECT json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$')",
    "SELECT json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.c')",
    "SELECT json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.c[2]')",
    "SELECT json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.c[2].f')",
    "SELECT json_extract('{\"a\":2,\"c\":[4,5],\"f\":7}','$.c','$.a')",
    "SELECT json_extract('{\"a\":2,\"c\":[4,5],\"f\":7}','$.c[#-1]')",
    "SELECT json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.x')",
    "SELECT json_extract('{\"a\":2,\"c\":[4,5,{\"f\":7}]}', '$.x', '$.a')",
    "SELECT json_extract('{\"a\":\"xyz\"}', '$.a'), json_extract('{\"a\":null}', '$.a')",
    "SELECT json_extract('[1,2,3]', '$[#]'), json_extract('[1,2,3]', '$[#-3]'), json_extract('[1,2,3]', '$[#-4]')",
    "SELECT json_extract('[1,2,3]', '$[#-0]'), json_extract('[1,2,3]', '$[99999999999999999999]')",
    "SELECT json_extract('{\"a b\":1,\"a.b\":2,\"\":3,\"\\u0061\":4}', '$.\"a b\"', '$.\"a.b\"', '$.\"\"', '$.a')",
    "SELECT json_extract('{\"é\":1}', '$.é'), json_extract('{\"\\u00e9\":1}', '$.\"é\"')",
    "SELECT json_extract('{\"a\\\"b\":1}', '$.\"a\\\"b\"')",
    "SELECT json_extract('{\"a\":1}', 'a')",
    "SELECT json_extract('{\"a\":1}', '$a')",
    "SELECT json_extract('{\"a\":1}', '$.')",
    "SELECT json_extract('[1]', '$[')",
    "SELECT json_extract('[1]', '$[a]')",
    "SELECT json_extract('{\"a\":1}', '$[a]')",
    "SELECT json_extract('[1]', '$.\"a')",
    "SELECT json_extract('[1]', '$[#+1]')",
    "SELECT json_extract('[1]', '$[0]x')",
    "SELECT json_extract(NULL, 'bad'), json_extract('[1]', NULL), json_extract('[1]')",
    "SELECT json_extract('bad', '$')",
    "SELECT json_extract('[1]', 0)",
    "SELECT json_extract('[true,false,null,1.5,\"s\",0x1f,-0x1f,.5,1e400]', \
     '$[0]', '$[1]', '$[2]', '$[3]', '$[4]', '$[5]', '$[6]', '$[7]', '$[8]')",
    "SELECT json_extract('[true]','$[0]'), json_extract('[0x1f]','$[0]'), json_extract('[-0x1f]','$[0]'), \
     json_extract('[.5]','$[0]'), json_extract('[1e400]','$[0]'), json_extract('[-1e400]','$[0]')",
    "SELECT json_extract('[9223372036854775807]','$[0]'), json_extract('[9223372036854775808]','$[0]'), \
     json_extract('[-9223372036854775808]','$[0]'), json_extract('[-9223372036854775809]','$[0]'), \
     json_extract('[18446744073709551616]','$[0]'), json_extract('[0x8000000000000000]','$[0]')",
    "SELECT json_extract('[0xffffffffffffffff]','$[0]'), json_extract('[-0x7fffffffffffffff]','$[0]'), \
     json_extract('[-0]','$[0]'), json_extract('[-0.0]','$[0]'), json_extract('[1.0]','$[0]')",
    "SELECT json_extract('0x10000000000000000','$')",
    "SELECT json_extract('[\"\\ud83d\\ude00\", \"\\u00e9\", \"a\\tb\", \"\\\\\", \"\\/\"]', '$[0]', '$[1]', '$[2]', '$[3]', '$[4]')",
    "SELECT json_extract('[\"\\ud83d\\ude00\"]', '$[0]'), json_extract('[\"\\u00e9\"]', '$[0]'), \
     length(json_extract('[\"a\\u0000b\"]', '$[0]'))",
    "SELECT json_extract('[\"\\x41\\v\",''\\''q'']', '$[0]'), json_extract('[\"\\x41\\v\",''\\''q'']', '$[1]')",
    "SELECT json_extract('{\"a\":{\"b\":{\"c\":[10,20,{\"d\":\"deep\"}]}}}', '$.a.b.c[2].d')",
    // --- -> and ->> ---
    "SELECT '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$'",
    "SELECT '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.c', '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> 'c'",
    "SELECT '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.c[2]', '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.c[2].f'",
    "SELECT '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' ->> '$.c[2].f', '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> 'c' -> 2 ->> 'f'",
    "SELECT '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.c[#-1]', '{\"a\":2,\"c\":[4,5,{\"f\":7}]}' -> '$.x'",
    "SELECT '{\"a\":\"xyz\"}' -> '$.a', '{\"a\":\"xyz\"}' ->> '$.a', '{\"a\":null}' -> '$.a', '{\"a\":null}' ->> '$.a'",
    "SELECT '[1,2,3]' -> 1, '[1,2,3]' -> -1, '[1,2,3]' ->> -3, '[1,2,3]' -> -4, '[1,2,3]' ->> '[0]'",
    "SELECT '{\"a b\":1}' -> 'a b', '{\"1\":7}' -> '1', '{\"1\":7}' ->> 1.5, '{\"\":9}' ->> ''",
    "SELECT '[1]' -> '$[0', 1",
    "SELECT 1 + '[1,2]' -> 1, '[1,2]' ->> 1 + 1, 2 * '[1,2]' ->> 1, '[1,2]' -> 1 || 'x', 'x' || '[1,2]' -> 1",
    "SELECT '{\"a\":[1,2]}' -> 'a' = '[1,2]', '{\"a\":[1,2]}' ->> 'a' IS NOT NULL, 3 - '[5]' ->> 0 * 2",
    "SELECT 2 * 3 || 4, 1 + 2 || 3, '[1,2]' -> 0 | 2",
    "SELECT NULL -> '$', '[1]' -> NULL, '{\"a\":[1]}' ->> 'a', typeof('{\"a\":[1]}' ->> 'a')",
    "SELECT '[true,1.5,\"s\",null]' ->> 0, '[true,1.5,\"s\",null]' ->> 1, '[true,1.5,\"s\",null]' ->> 2, \
     typeof('[true,1.5,\"s\",null]' ->> 3), '[true,1.5,\"s\",null]' -> 2",
    "SELECT 'bad' -> '$'",
    // --- json_insert / json_replace / json_set (documentation) ---
    "SELECT json_insert('[1,2,3,4]','$[#]',99), json_insert('[1,[2,3],4]','$[1][#]',99)",
    "SELECT json_insert('{\"a\":2,\"c\":4}', '$.a', 99), json_insert('{\"a\":2,\"c\":4}', '$.e', 99)",
    "SELECT json_replace('{\"a\":2,\"c\":4}', '$.a', 99), json_replace('{\"a\":2,\"c\":4}', '$.e', 99)",
    "SELECT json_set('{\"a\":2,\"c\":4}', '$.a', 99), json_set('{\"a\":2,\"c\":4}', '$.e', 99)",
    "SELECT json_set('{\"a\":2,\"c\":4}', '$.c', '[97,96]'), json_set('{\"a\":2,\"c\":4}', '$.c', json('[97,96]')), \
     json_set('{\"a\":2,\"c\":4}', '$.c', json_array(97,96))",
    "SELECT json_set('{}', '$.a.b.c', 1), json_set('{}', '$.a[0].b', 1), json_set('{}', '$.a[1]', 1), \
     json_set('[]', '$[0][0][#]', 'x')",
    "SELECT json_set('{\"a\":1}', '$', 5), json_replace('{\"a\":1}', '$', json('[1]')), json_insert('{\"a\":1}', '$', 5)",
    "SELECT json_set('[1,2,3]', '$[1]', NULL, '$[5]', 9, '$[3]', 4), json_set('[1,2]', '$[#-1]', 'last')",
    "SELECT json_set('{\"a\":1}', '$.b', 1.5, '$.c', -0.0, '$.d', 1e400, '$.e', 'txt\"q', '$.f', x'0b')",
    "SELECT json_set('{\"a\":1}', NULL, 2, '$.b', 3)",
    "SELECT json_set('{\"a\":1}', '$.b')",
    "SELECT json_insert('{\"a\":1}', '$.b')",
    "SELECT json_replace('{\"a\":1}', '$.b')",
    "SELECT json_set('{\"a\":1}', 'b', 2)",
    "SELECT json_set('{\"a\":1}', '$.b', x'01')",
    "SELECT json_set('{\"a\":1}', '$.b', json('{bad'))",
    "SELECT json_set(NULL, '$.a', 1), json_set('{\"a\":1}'), json_set()",
    "SELECT json_set('{\"\\u0061\":1}', '$.a', 2), json_set('{\"a\":1}', '$.\"a b\"', 2, '$.\"q\\\"\"', 3)",
    "SELECT json_set('{\"a\":{\"b\":1}}', '$.a.b', json_object('x', json_array(1, json('{\"y\":[]}'))))",
    "SELECT json_set('[1]', '$[0]', 'x', '$[0]', json_quote('y'))",
    "SELECT json_set('\"abcdefghij\"', '$', 1), jsonb_set('\"abcdefghij\"', '$', 1)",
    "SELECT json_insert('[1]', '$[#]', 2, '$[#]', 3), json_insert('{}', '$.x', json('{\"a\":1}'))",
    // json_array_insert.
    "SELECT json_array_insert('[1,2,3]', '$[1]', 'x'), json_array_insert('[1,2,3]', '$[#]', 'end'), \
     json_array_insert('[1,2,3]', '$[0]', json('[0]'))",
    "SELECT json_array_insert('{\"a\":[1]}', '$.a[0]', 0), json_array_insert('{}', '$.a[0]', 1)",
    "SELECT json_array_insert('{\"a\":1}', '$.a', 0)",
    "SELECT json_array_insert('{\"a\":1}', '$.b', 0)",
    "SELECT json_array_insert('[1]', '$', 0), json_array_insert('[1]', '$[5]', 0)",
    // --- json_remove (documentation) ---
    "SELECT json_remove('[0,1,2,3,4]','$[2]'), json_remove('[0,1,2,3,4]','$[2]','$[0]')",
    "SELECT json_remove('[0,1,2,3,4]','$[0]','$[2]'), json_remove('[0,1,2,3,4]','$[#-1]','$[0]')",
    "SELECT json_remove('{\"x\":25,\"y\":42}'), json_remove('{\"x\":25,\"y\":42}','$.z'), \
     json_remove('{\"x\":25,\"y\":42}','$.y'), json_remove('{\"x\":25,\"y\":42}','$')",
    "SELECT json_remove('{\"a\":{\"b\":[1,2]}}', '$.a.b[0]', '$.a.c'), json_remove('[1,2]', NULL, '$[0]')",
    "SELECT json_remove('[1]', 'x')",
    "SELECT json_remove('{\"a\":1,\"a\":2}', '$.a'), json_remove('{a:1, b:2}', '$.a'), json_remove()",
    // --- json_patch (documentation) ---
    "SELECT json_patch('{\"a\":1,\"b\":2}','{\"c\":3,\"d\":4}'), json_patch('{\"a\":[1,2],\"b\":2}','{\"a\":9}')",
    "SELECT json_patch('{\"a\":[1,2],\"b\":2}','{\"a\":null}'), json_patch('{\"a\":1,\"b\":2}','{\"a\":9,\"b\":null,\"c\":8}')",
    "SELECT json_patch('{\"a\":{\"x\":1,\"y\":2},\"b\":3}','{\"a\":{\"y\":9},\"c\":8}')",
    "SELECT json_patch('[1,2]', '{\"a\":1}'), json_patch('{\"a\":1}', '[1]'), json_patch('1', '2'), \
     json_patch('{\"a\":1}', '{\"b\":{\"c\":{\"d\":null, \"e\":1}}}')",
    "SELECT json_patch('{\"a\":\"x\"}', '{\"a\":{\"b\":1}}'), json_patch(NULL, '{}'), json_patch('{}', NULL)",
    "SELECT json_patch('{', '{}')",
    "SELECT json_patch('{\"\\u0061\":1}', '{\"a\":2}'), json_patch('{a:1}', '{\"a\":null}')",
    // --- json_pretty ---
    "SELECT json_pretty('{\"a\":[1,2,{\"b\":[]}],\"c\":{}}')",
    "SELECT json_pretty('[1,[2,[3]]]', '  '), json_pretty('[1]', ''), json_pretty('[1,2]', NULL), json_pretty('5')",
    "SELECT json_pretty('{\"a\":1}', char(9)), json_pretty(NULL), json_array(json_pretty('[1]'))",
    "SELECT json_pretty('{x')",
    // --- json_error_position ---
    "SELECT json_error_position('{\"a\":1}'), json_error_position('1 2'), json_error_position(''), \
     json_error_position('[1,'), json_error_position('{\"a\":x}')",
    "SELECT json_error_position('[1,2,3'), json_error_position('[\"é\", x]'), json_error_position(NULL), \
     json_error_position(123), json_error_position('{a:1}')",
    "SELECT json_error_position(jsonb('[1]')), json_error_position(x'3b'), json_error_position('\"abc')",
    // --- the subtype ---
    "SELECT json_array(json('[1]')), json_array('[1]'), json_array(+json('[1]')), json_array(CAST(json('[1]') AS TEXT))",
    "SELECT json_array(coalesce(NULL, json('[1]'))), json_array(ifnull(json('[1]'), 2)), \
     json_array(iif(1, json('[1]'), 2)), json_array(CASE WHEN 1 THEN json('[1]') END)",
    "SELECT json_array(nullif(json('[1]'), 2)), json_array(max(json('[1]'), '')), json_array(min(json('[1]'), 'z')), \
     json_array(likely(json('[1]'))), json_array(unlikely(json('{}')))",
    "SELECT json_array((SELECT json('[1]'))), json_array(json('[1]') || ''), json_array(printf('%s', json('[1]'))), \
     json_array(trim(json('[1]')))",
    "SELECT json_array(json('[1]') COLLATE nocase), json_object('a', json_extract('{\"a\":[1]}', '$.a')), \
     json_object('a', json_extract('{\"a\":\"[1]\"}', '$.a'))",
    "SELECT json_array('{\"a\":[1]}' -> '$.a'), json_array('{\"a\":[1]}' ->> '$.a'), json_array('{\"a\":\"s\"}' -> 'a')",
    "SELECT json_array(json_quote('x')), json_array(json_pretty('[1]')), json_array(json_type('[1]')), \
     json_array(json_set('{}', '$.a', 1)), json_array(json_remove('[1,2]', '$[0]')), json_array(json_patch('{}', '{}'))",
    "SELECT json_array(json_extract('[1,[2]]', '$[0]', '$[1]')), json_array(json_object('a', 1)), \
     json_array(json_array_length('[1]'))",
    "SELECT json_array(j) FROM (SELECT json('[1]') AS j)",
    "SELECT json_set('{}', '$.a', json('[1]'), '$.b', '[1]', '$.c', '[1]' -> '$')",
    "SELECT json_array(CAST(json('1') AS INTEGER)), json_array(CAST(json('[1]') AS BLOB))",
    // --- aggregates ---
    "SELECT json_group_array(v) FROM kv",
    "SELECT g, json_group_array(v), json_group_object(k, v) FROM kv GROUP BY g ORDER BY g",
    "SELECT json_group_array(v), json_group_object(k, v) FROM kv WHERE g = 99",
    "SELECT json_group_array(DISTINCT v) FROM kv",
    "SELECT json_group_object(name, json(doc)) FROM docs WHERE id IN (1, 3)",
    "SELECT json_group_object(k, v) FROM kv WHERE g = 1 AND k IS NULL",
    "SELECT json_group_array(x'00')",
    "SELECT json_group_array(1, 2)",
    "SELECT json_group_object(1)",
    "SELECT json_group_array(json('[1]')), json_group_array('[1]'), json_array(json_group_array(1))",
    "SELECT json_group_array(doc -> '$.n') FROM docs WHERE id < 5",
    "SELECT typeof(jsonb_group_array(v)), json(jsonb_group_array(v)), json(jsonb_group_object(k, v)) FROM kv",
    "SELECT grp, json_group_array(id) FROM docs GROUP BY grp HAVING json_array_length(json_group_array(id)) > 1",
    // --- jsonb ---
    "SELECT hex(jsonb('{\"a\":[1,2.5,\"x\",null,true]}')), hex(jsonb('[0x1f, .5, ''s'', \"\\n\"]'))",
    "SELECT json(jsonb('{\"a\":[1,2]}')), jsonb_extract(jsonb('{\"a\":[1,2]}'), '$.a[1]'), \
     hex(jsonb_extract(jsonb('{\"a\":[1,2]}'), '$.a')), json_extract(jsonb('{\"a\":[1,2]}'), '$.a')",
    "SELECT hex(jsonb_array(1, 'a', json('[2]'))), hex(jsonb_object('k', 1.5)), \
     hex(jsonb_set('{\"a\":1}', '$.b', 2)), hex(jsonb_remove('[1,2]', '$[0]'))",
    "SELECT hex(jsonb_insert('[1]', '$[#]', 2)), hex(jsonb_replace('[1]', '$[0]', 'abc')), \
     hex(jsonb_patch('{\"a\":1}', '{\"a\":\"long string value\"}')), hex(jsonb_array_insert('[1]', '$[0]', 0))",
    "SELECT json_array_length(jsonb('[1,2,3]')), json_type(jsonb('{}')), jsonb('[1]') -> 0, jsonb('{\"a\":1}') ->> 'a'",
    "SELECT json(x'0b'), json(x'0c'), json(x'13'), json(x'1331'), json(x'00')",
    "SELECT json(x'7b7d')",
    "SELECT json(x'ff')",
    "SELECT hex(jsonb(NULL)), hex(jsonb('1')), hex(jsonb(1.5)), typeof(jsonb('[]'))",
    // --- deep nesting ---
    "SELECT json_valid(printf('%.999c%.999c', '[', ']')), json_valid(printf('%.1000c%.1000c', '[', ']')), \
     json_valid(printf('%.1001c%.1001c', '[', ']'))",
    "SELECT json(printf('%.1001c%.1001c', '[', ']'))",
    "SELECT length(json(printf('%.1000c%.1000c', '[', ']'))), json_error_position(printf('%.1001c', '['))",
    "SELECT json_extract(printf('%.999c1%.999c', '[', ']'), '$' || printf('%.998c', '_') )",
    "SELECT length(json_pretty(printf('%.1000c%.1000c', '[', ']')))",
    "SELECT json_set('{}', '$' || replace(printf('%.1000c', 'x'), 'x', '.a'), 1)",
    "SELECT json_valid(replace(printf('%.1000c', 'x'), 'x', '{\"a\":') || '1' || printf('%.1000c', '}'))",
    // --- json_each / json_tree ---
    "SELECT * FROM json_each('[1,\"two\",[3],{\"four\":4},null,true,1.5]')",
    "SELECT * FROM json_each('{\"a\":1,\"b\":[2,3],\"c\":{\"d\":4},\"e f\":5,\"\":6,\"9\":7}')",
    "SELECT * FROM json_tree('{\"a\":1,\"b\":[2,{\"c\":3}],\"d\":{\"e\":[]}}')",
    "SELECT key, value, type, atom, id, parent, fullkey, path, json, root FROM json_each('[10,20]')",
    "SELECT key, value, type, atom, id, parent, fullkey, path, root FROM json_each('{\"a\":{\"b\":[1,2]}}', '$.a')",
    "SELECT * FROM json_each('{\"a\":{\"b\":[1,2]}}', '$.a.b')",
    "SELECT * FROM json_each('{\"a\":1}', '$.a')",
    "SELECT * FROM json_each('{\"a\":1}', '$.zz')",
    "SELECT * FROM json_each('[1,[2,3]]', '$[1]')",
    "SELECT * FROM json_tree('{\"x\":{\"a\":1,\"b\":[2]}}','$.x.b')",
    "SELECT * FROM json_tree('{\"x\":{\"a\":1,\"b\":[2]}}','$.x.a')",
    "SELECT * FROM json_tree('{\"x\":{\"a\":1,\"b\":[2]}}','$.x')",
    "SELECT * FROM json_tree('[[1,[2]],3]', '$[0][1]')",
    "SELECT * FROM json_each('5') a, json_each('\"s\"') b",
    "SELECT * FROM json_tree('5')",
    "SELECT * FROM json_each(NULL)",
    "SELECT * FROM json_each('[1]', NULL)",
    "SELECT * FROM json_each('[1')",
    "SELECT * FROM json_each('[1]', 'x')",
    "SELECT * FROM json_each('[1]', '$[')",
    "SELECT rowid, key FROM json_each('[5,6,7]')",
    "SELECT json_each.key, json_each.value FROM json_each('{\"z\":1,\"a\":2}') ORDER BY json_each.key",
    "SELECT j.key, j.value FROM json_each('[3,1,2]') AS j WHERE j.value > 1 ORDER BY j.value",
    "SELECT count(*), sum(value) FROM json_each('[1,2,3,4]')",
    "SELECT key FROM json_each('{\"\\u0061\\\"b\":1, a:2, ''q'':3}')",
    "SELECT fullkey, path FROM json_tree('{\"a b\":{\"c.d\":[{\"1x\":0}]}, \"\":{\"e\":1}}')",
    "SELECT * FROM json_each(jsonb('{\"a\":[1,2],\"b\":\"x\"}'))",
    "SELECT key, hex(value), type FROM jsonb_each('{\"a\":[1,2],\"b\":\"x\"}')",
    "SELECT fullkey, hex(value) FROM jsonb_tree('[[1],{\"a\":2}]')",
    "SELECT json_array(value), json_array(atom) FROM json_each('[[1],\"[2]\",{\"a\":3}]')",
    "SELECT json_group_array(value) FROM json_each('[[1],\"[2]\",{\"a\":3},4]')",
    "SELECT value FROM json_each('[1,2,3]') WHERE value IN (SELECT value FROM json_each('[2,3,4]'))",
    "SELECT (SELECT count(*) FROM json_each(d.doc, '$.tags')) FROM docs d WHERE d.id < 5 ORDER BY d.id",
    "SELECT a.value, b.value FROM json_each('[1,2]') a, json_each('[\"x\",\"y\"]') b",
    "SELECT a.value, b.value FROM json_each('[[1,2],[3]]') a, json_each(a.value) b",
    "SELECT a.key, b.key, b.value FROM json_each('{\"p\":{\"q\":1},\"r\":{\"s\":2,\"t\":3}}') a, json_each(a.value) b",
    // Hidden columns as constraints, eponymous calls, errors.
    "SELECT * FROM json_each",
    "SELECT * FROM json_each()",
    "SELECT key, value FROM json_each WHERE json = '[1,2]'",
    "SELECT key, value FROM json_each WHERE '[3,4]' = json",
    "SELECT key FROM json_each WHERE json = '{\"a\":[1]}' AND root = '$.a'",
    "SELECT key FROM json_each('{\"a\":[1,2]}') WHERE root = '$.a'",
    "SELECT key FROM json_each('[1,2]') WHERE json = '[9]'",
    "SELECT key FROM json_each WHERE root = '$'",
    "SELECT * FROM json_each('[1]', '$', 3)",
    "SELECT * FROM json_tree('[1]', '$', 3, 4)",
    "SELECT * FROM docs(1)",
    "SELECT * FROM nosuch(1)",
    "SELECT * FROM json_each(123), json_each(1.5) b, json_each('\"x\"') c",
    "SELECT * FROM json_each(x'0b')",
    "SELECT key FROM json_each('[3,1,2]') ORDER BY rowid DESC",
    "SELECT json_each.json, json_each.root, typeof(json_each.rowid) FROM json_each('[1]', '$')",
    "SELECT fullkey, value FROM json_tree('{\"a\":{\"b\":{\"c\":[1,[2,[3]]]}}}') WHERE type = 'integer'",
    "SELECT type, count(*) FROM json_tree((SELECT doc FROM docs WHERE id = 1)) GROUP BY type ORDER BY type",
    "SELECT key, value FROM json_each((SELECT doc FROM docs WHERE id = 3)) WHERE key > 1",
    "SELECT d.id, j.key FROM json_each(d.doc) j, docs d WHERE d.id = 3",
    "SELECT d.id, j.value FROM docs d LEFT JOIN json_each(d.doc, '$.tags') j ON j.value <> 'x' WHERE d.id IN (1, 2, 4)",
    "SELECT d.id FROM docs d WHERE d.id < 5 AND 'x' IN (SELECT value FROM json_each(d.doc, '$.tags'))",
    "SELECT d.id, t.value FROM docs d, json_each(d.doc, '$.tags') t, json_each(d.doc, '$.tags') u \
     WHERE d.id IN (1, 4) AND t.key <= u.key",
    "SELECT d.id, j.key, k.key FROM docs d, json_each(d.doc) j, json_each(j.value) k \
     WHERE d.id IN (1, 3, 4) AND j.type IN ('array', 'object')",
    "SELECT j.value, count(*) FROM docs d, json_each(d.doc, '$.tags') j WHERE d.id < 5 GROUP BY j.value ORDER BY 1",
    "SELECT j.key FROM docs d JOIN json_each(d.doc) j ON d.id = 8 ORDER BY j.id",
    "SELECT (SELECT max(key) FROM json_each(x.doc)) FROM (SELECT doc FROM docs WHERE id IN (1, 3)) x",
    "SELECT count(*) FROM json_tree(printf('[%s]', replace(printf('%.200c', 'x'), 'x', '{\"a\":[1,2],\"b\":\"s\"},') || '0'))",
    "SELECT max(id), min(parent), count(DISTINCT path) FROM json_tree(printf('%.300c%.300c', '[', ']'))",
    "SELECT key, atom FROM json_tree('[\"\\ud83d\\ude00\", \"\\u00e9\", 1e400, -0x10, .5]') WHERE atom IS NOT NULL",
    // A call is made only once a row needs it: not under a false constant
    // condition, not after an empty relation.
    "SELECT * FROM json_each('not json') WHERE NULL",
    "SELECT * FROM json_each('not json') WHERE 0 AND key = 1",
    "SELECT * FROM docs d JOIN json_tree('[1,2') j ON NULL",
    "SELECT count(*) FROM empty e, json_each('not json')",
    "SELECT * FROM empty e LEFT JOIN json_each('[1') j ON 1",
    "SELECT * FROM empty e, json_each(e.x, 'bad path')",
    "SELECT count(*) FROM json_each('[1,2]') a, json_each('bad') b WHERE a.key > 5",
    "SELECT a.key, b.key FROM json_each('[1,2,3]') a, json_each('[\"x\",\"y\"]') b WHERE b.key = a.key",
    "SELECT a.key, b.key FROM json_each('[1,2,3]') a LEFT JOIN json_each('[10,20]') b ON b.key = a.key",
    "SELECT * FROM json_each('[1,2]') a, json_each('[]') b",
    // A constant WHERE condition stays out of LEFT JOIN's ON.
    "SELECT d.id, j.key FROM docs d LEFT JOIN json_each('[1]') j ON 1 WHERE NULL",
    "SELECT d.id FROM docs d LEFT JOIN docs e ON 1 WHERE 0",
    "SELECT json_group_array(e.x) FROM docs d LEFT JOIN empty e ON 1 WHERE 2 IN (3)",
    // `value` compared with a TEXT column: no affinity applied (BLOB vs TEXT).
    "SELECT j.key, d.id FROM json_each('[\"1\",1,3,\"3\"]') j LEFT JOIN docs d ON d.grp = j.value",
    "SELECT j.value = '1', '1' = j.value, j.value = d.grp FROM json_each('[1]') j, docs d WHERE d.id = 1",
    "SELECT j.key FROM json_each('[1,\"1\"]') j WHERE j.value IN (SELECT '1')",
    // Over tables, correlated (documentation).
    "SELECT d.id, j.key, j.value FROM docs d, json_each(d.doc) j WHERE d.id IN (1, 3, 4, 7, 8)",
    "SELECT d.id, j.value FROM docs d, json_each(d.doc, '$.tags') j ORDER BY d.id, j.key",
    "SELECT d.id, j.fullkey, j.type FROM docs d, json_tree(d.doc) j WHERE d.id IN (1, 3, 7)",
    "SELECT DISTINCT user.name FROM user, json_each(user.phone) WHERE json_each.value LIKE '704-%' ORDER BY 1",
    "SELECT name FROM user WHERE phone LIKE '704-%' UNION SELECT user.name FROM user, json_each(user.phone) \
     WHERE json_valid(user.phone) AND json_each.value LIKE '704-%'",
    "SELECT big.rowid, fullkey, value FROM big, json_tree(big.json) WHERE json_tree.type NOT IN ('object','array')",
    "SELECT big.rowid, fullkey, atom FROM big, json_tree(big.json) WHERE atom IS NOT NULL",
    "SELECT DISTINCT json_extract(big.json,'$.id') FROM big, json_tree(big.json, '$.partlist') \
     WHERE json_tree.key='uuid' AND json_tree.value='6fa5181e-5721-11e5-a04e-57f3d7b32808'",
    "SELECT d.id, j.value FROM docs d LEFT JOIN json_each(d.doc, '$.tags') j WHERE d.id < 5 ORDER BY d.id, j.id",
    "SELECT d.id, count(j.key) FROM docs d, json_each(d.doc) j WHERE json_valid(d.doc) GROUP BY d.id ORDER BY d.id",
    "SELECT u.name, j.value FROM user u JOIN json_each(u.phone) j ON j.value LIKE '9%'",
    "SELECT d.id FROM docs d WHERE EXISTS (SELECT 1 FROM json_each(d.doc, '$.tags') WHERE value = 'y')",
    "SELECT d.id, (SELECT json_group_array(value) FROM json_each(d.doc, '$.tags')) FROM docs d WHERE d.id < 5",
    "SELECT * FROM docs d, json_each(d.doc) WHERE d.id = 5",
    "SELECT count(*) FROM docs d, json_tree(d.doc) WHERE d.id IN (1,2,3,4,7,8)",
    // --- over columns ---
    "SELECT id, json_valid(doc), json_type(doc), json_extract(doc, '$.name'), doc ->> 'n', doc -> 'tags' FROM docs \
     WHERE id <> 5 ORDER BY id",
    "SELECT id, json_array_length(doc, '$.tags'), json_set(doc, '$.n', 0) FROM docs WHERE id IN (1, 2, 4)",
    "SELECT grp, sum(doc ->> 'n') FROM docs WHERE json_valid(doc) AND json_type(doc) = 'object' GROUP BY grp",
    "SELECT id FROM docs WHERE doc ->> '$.nested.k[0]' = 1",
    "SELECT id, doc -> '$.nested' FROM docs WHERE doc -> '$.nested' IS NOT NULL ORDER BY doc ->> 'name' DESC",
    "SELECT json_extract(doc, '$.name') FROM docs WHERE id = 5",
    // --- miscellaneous ---
    "SELECT json_array(1) = '[1]', typeof(json_array()), json_object('a', 1) -> 'a' + 1",
    "SELECT json_extract('{\"a\":1}', '$.a', '$.a', '$.b'), json_extract('[[1]]', '$[0]', '$[0][0]')",
    "SELECT length(json(printf('[%s]', replace(printf('%.5000c', 'x'), 'x', '1,') || '1')))",
    "SELECT json_extract(printf('[%s]', replace(printf('%.3000c', 'x'), 'x', '7,') || '8'), '$[#-1]', '$[2999]', '$[3000]')",
];

/// Column names and rows, or the error's text.
fn ours(s: &mut Session, sql: &str) -> Result<(Vec<String>, Vec<Vec<Value>>), String> {
    match s.execute(sql, &Params::None) {
        Ok(Outcome::Rows { columns, rows }) => Ok((columns, rows)),
        Ok(o) => Err(format!("not rows: {o:?}")),
        Err(e) => Err(msg(&e)),
    }
}

fn msg(e: &Error) -> String {
    values_common::our_msg(e)
}

fn sqlite_rows(
    c: &rusqlite::Connection,
    sql: &str,
) -> Result<(Vec<String>, Vec<Vec<Value>>), String> {
    values_common::sqlite_query(c, sql).map_err(|e| match e.find(" in SELECT") {
        Some(p) => e[..p].to_string(),
        None => e,
    })
}

/// A difference between our result and SQLite's, rendered, or `None`.
fn compare(s: &mut Session, c: &rusqlite::Connection, sql: &str, names: bool) -> Option<String> {
    let (a, b) = (ours(s, sql), sqlite_rows(c, sql));
    match (&a, &b) {
        (Ok(a), Ok(b)) => {
            let ka: Vec<String> = a.1.iter().map(|r| row_key(r)).collect();
            let kb: Vec<String> = b.1.iter().map(|r| row_key(r)).collect();
            ((names && a.0 != b.0) || ka != kb)
                .then(|| format!("{sql}\n  ours:   {:?} {ka:?}\n  sqlite: {:?} {kb:?}", a.0, b.0))
        }
        (Err(x), Err(y)) => {
            (x != y).then(|| format!("{sql}\n  ours:   error {x}\n  sqlite: error {y}"))
        }
        _ => Some(format!("{sql}\n  ours:   {a:?}\n  sqlite: {b:?}")),
    }
}

fn setup(engine: &Engine) -> (Session, rusqlite::Connection) {
    values_common::loaded(engine, SETUP)
}

#[test]
fn json_queries_match_sqlite() {
    let mut diffs = Vec::new();
    for e in values_common::both_stores() {
        let (mut s, c) = setup(&e);
        diffs.extend(CASES.iter().filter_map(|q| compare(&mut s, &c, q, true)));
    }
    for d in &diffs {
        println!("{d}\n");
    }
    assert!(diffs.is_empty(), "{} of {} queries differ from SQLite", diffs.len(), 2 * CASES.len());
}

/// A random JSON document: nested arrays and objects of numbers in many
/// spellings, strings with escapes, literals, sometimes JSON5, sometimes
/// malformed.
struct DocGen<'a> {
    r: &'a mut Lcg,
    json5: bool,
}

const KEYS: &[&str] =
    &["a", "b", "c", "a b", "", "é", "x.y", "k[0]", "0", "Z9", "$", "q\\\"t", "\\u0061"];
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "42",
    "1.5",
    "1.50",
    "-2.25e3",
    "1E+2",
    "1e400",
    "-1e400",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "0.1",
    "1e-400",
    "5e-324",
    "2.2250738585072014e-308",
];
const NUMBERS5: &[&str] =
    &["0x1F", "-0xff", "+7", ".5", "5.", "-.25", "Infinity", "-Infinity", "NaN", "0X0", "+.5e1"];
const STRINGS: &[&str] = &[
    "plain",
    "",
    "with space",
    "q\\\"uote",
    "back\\\\slash",
    "\\n\\t\\r\\b\\f\\/",
    "\\u00e9\\u4e2d",
    "\\ud83d\\ude00",
    "\\ud800",
    "\\udc00x",
    "é中😀",
    "\\u0000",
    "a'b",
    "[1,2]",
    "{\\\"k\\\":1}",
];
const STRINGS5: &[&str] =
    &["'single'", "'with \"dq\"'", "\"\\x41\\v\\0\"", "\"line\\\ncont\"", "'\\''"];

impl DocGen<'_> {
    fn value(&mut self, out: &mut String, depth: u32) {
        let r = match depth {
            0 if self.r.below(5) > 0 => 6 + self.r.below(4),
            0..=3 => self.r.below(10),
            _ => self.r.below(6),
        };
        match r {
            0 | 1 => {
                let pool = if self.json5 && self.r.below(3) == 0 { NUMBERS5 } else { NUMBERS };
                out.push_str(pool[self.r.below(pool.len() as u64) as usize]);
            }
            2 | 3 => {
                if self.json5 && self.r.below(3) == 0 {
                    out.push_str(STRINGS5[self.r.below(STRINGS5.len() as u64) as usize]);
                } else {
                    out.push('"');
                    out.push_str(STRINGS[self.r.below(STRINGS.len() as u64) as usize]);
                    out.push('"');
                }
            }
            4 => out.push_str(["true", "false", "null"][self.r.below(3) as usize]),
            5 => out.push_str(["[]", "{}", "[ ]", "{ }"][self.r.below(4) as usize]),
            6 | 7 => {
                out.push('[');
                let n = self.r.below(5);
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    self.space(out);
                    self.value(out, depth + 1);
                }
                if self.json5 && n > 0 && self.r.below(4) == 0 {
                    out.push(',');
                }
                out.push(']');
            }
            _ => {
                out.push('{');
                let n = self.r.below(5);
                for i in 0..n {
                    if i > 0 {
                        out.push(',');
                    }
                    self.space(out);
                    let k = KEYS[self.r.below(KEYS.len() as u64) as usize];
                    let bare = !k.is_empty()
                        && k.bytes().all(|c| c.is_ascii_alphanumeric())
                        && !k.starts_with('0');
                    if self.json5 && bare && self.r.below(2) == 0 {
                        out.push_str(k);
                    } else {
                        out.push('"');
                        out.push_str(k);
                        out.push('"');
                    }
                    out.push(':');
                    self.value(out, depth + 1);
                }
                if self.json5 && n > 0 && self.r.below(4) == 0 {
                    out.push(',');
                }
                out.push('}');
            }
        }
    }

    fn space(&mut self, out: &mut String) {
        match self.r.below(12) {
            0 => out.push(' '),
            1 => out.push_str("\n\t"),
            2 if self.json5 => out.push_str("/*c*/"),
            3 if self.json5 => out.push('\u{a0}'),
            _ => {}
        }
    }

    fn doc(&mut self) -> String {
        let mut s = String::new();
        self.space(&mut s);
        self.value(&mut s, 0);
        self.space(&mut s);
        match self.r.below(20) {
            0 => {
                // Cut short somewhere.
                let cut = self.r.below(s.len() as u64 + 1) as usize;
                let cut = (0..=cut).rev().find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                s.truncate(cut);
            }
            1 => s.push_str(["x", ",", "]", "}", " 1", "//"][self.r.below(6) as usize]),
            _ => {}
        }
        s
    }
}

/// A path: mostly steps that exist in documents like ours, sometimes
/// malformed.
fn random_path(r: &mut Lcg) -> Value {
    if r.below(12) == 0 {
        return match r.below(4) {
            0 => Value::Integer(r.below(4) as i64 - 1),
            1 => Value::Text(["a", "b", "[0]", "a b", ""][r.below(5) as usize].into()),
            2 => Value::Null,
            _ => Value::Text(
                ["", "$.", "$[", "$[a]", "$.\"a", "x", "$[#+1]", "$..a", "$[0]x"]
                    [r.below(9) as usize]
                    .into(),
            ),
        };
    }
    let mut p = String::from("$");
    for _ in 0..r.below(4) {
        match r.below(8) {
            0..=2 => {
                let k = KEYS[r.below(KEYS.len() as u64) as usize];
                if !k.is_empty() && k.bytes().all(|c| c.is_ascii_alphanumeric()) && r.below(2) == 0
                {
                    p.push('.');
                    p.push_str(k);
                } else {
                    p.push_str(".\"");
                    p.push_str(k);
                    p.push('"');
                }
            }
            3..=5 => p.push_str(&format!("[{}]", r.below(4))),
            6 => p.push_str("[#]"),
            _ => p.push_str(&format!("[#-{}]", r.below(4))),
        }
    }
    Value::Text(p.into())
}

/// The paths of every element of `doc` (by SQLite's json_tree), for
/// lookups that find something.
fn known_paths(c: &rusqlite::Connection, doc: &str) -> Vec<String> {
    let Ok(mut st) = c.prepare_cached("SELECT fullkey FROM json_tree(?1)") else {
        return Vec::new();
    };
    let Ok(rows) = st.query_map([doc], |r| r.get::<_, String>(0)) else { return Vec::new() };
    rows.filter_map(Result::ok).collect()
}

/// A path into a document: mostly one of its own, sometimes one step
/// further, sometimes anything.
fn path_into(r: &mut Lcg, known: &[String]) -> Value {
    if known.is_empty() || r.below(5) == 0 {
        return random_path(r);
    }
    let mut p = known[r.below(known.len() as u64) as usize].clone();
    match r.below(6) {
        0 => p.push_str(".new"),
        1 => p.push_str("[#]"),
        2 => p.push_str("[0]"),
        _ => {}
    }
    Value::Text(p.into())
}

fn random_value(r: &mut Lcg, docs: &mut DocGen) -> (Value, bool) {
    match r.below(8) {
        0 => (Value::Null, false),
        1 => (Value::Integer(r.below(2000) as i64 - 1000), false),
        2 => (Value::Real([0.5, -0.0, 1e300, 3.25, f64::INFINITY][r.below(5) as usize]), false),
        3 => (Value::Text(["x", "[1]", "\"q\"", "é\n"][r.below(4) as usize].into()), false),
        // A JSON value: passed through json() in the statement.
        _ => (Value::Text(docs.doc().into()), true),
    }
}

/// Our value (or error message) for `sql` with `args`.
fn our_value(s: &mut Session, sql: &str, args: &[Value]) -> Result<Vec<Value>, String> {
    match s.execute(sql, &Params::Positional(args.to_vec())) {
        Ok(Outcome::Rows { mut rows, .. }) => {
            Ok(if rows.is_empty() { Vec::new() } else { rows.remove(0) })
        }
        Ok(o) => Err(format!("not rows: {o:?}")),
        Err(e) => Err(msg(&e)),
    }
}

fn sqlite_value(c: &rusqlite::Connection, sql: &str, args: &[Value]) -> Result<Vec<Value>, String> {
    let mut st = c.prepare_cached(sql).map_err(|e| values_common::sqlite_msg(&e))?;
    let n = st.column_count();
    let params: Vec<_> = args.iter().map(values_common::to_sql).collect();
    let mut rows = st
        .query(rusqlite::params_from_iter(params.iter()))
        .map_err(|e| values_common::sqlite_msg(&e))?;
    match rows.next() {
        Ok(Some(r)) => Ok((0..n).map(|i| values_common::from_ref(r.get_ref(i).unwrap())).collect()),
        Ok(None) => Ok(Vec::new()),
        Err(e) => Err(values_common::sqlite_msg(&e)),
    }
}

/// Expressions over a document ?1, paths ?2 and ?4, a value ?3 (JSON when
/// the template says json(?3)) and a second document ?5.
const TEMPLATES: &[&str] = &[
    "SELECT json(?1), json_valid(?1), json_valid(?1, 2), json_valid(?1, 1), json_error_position(?1)",
    "SELECT hex(jsonb(?1)), json_type(?1), json_array_length(?1), json_pretty(?1)",
    "SELECT json_type(?1, ?2), json_extract(?1, ?2), typeof(json_extract(?1, ?2)), json_array_length(?1, ?2)",
    "SELECT ?1 -> ?2, ?1 ->> ?2, typeof(?1 ->> ?2), json_extract(?1, ?2, ?4)",
    "SELECT json_set(?1, ?2, ?3), json_insert(?1, ?2, ?3), json_replace(?1, ?2, ?3)",
    "SELECT json_set(?1, ?2, json(?3)), json_insert(?1, ?4, json(?3), ?2, ?3), json_array_insert(?1, ?2, ?3)",
    "SELECT json_remove(?1, ?2), json_remove(?1, ?2, ?4), hex(jsonb_remove(?1, ?2))",
    "SELECT hex(jsonb_set(?1, ?2, ?3)), hex(jsonb_insert(?1, ?2, json(?3))), hex(jsonb_replace(?1, ?4, ?3))",
    "SELECT json_patch(?1, ?5), hex(jsonb_patch(?5, ?1)), json_patch(?1, ?1)",
    "SELECT json_array(?1, json(?1), ?3), json_object('k', json(?1), 'v', ?3), json_quote(json(?1))",
    "SELECT json(jsonb(?1)), json_extract(jsonb(?1), ?2), jsonb(?1) -> ?2, json_set(jsonb(?1), ?2, ?3)",
];

#[test]
fn random_documents_match_sqlite() {
    let mut r = Lcg(0x5eed_1f50);
    let mut r2 = Lcg(0xdead_beef);
    let engine = Engine::memory();
    let mut s = engine.session();
    let c = rusqlite::Connection::open_in_memory().unwrap();
    let mut diffs = Vec::new();
    let mut checked = 0;
    let n = values_common::cases(300);
    for _ in 0..n {
        let json5 = r.below(3) == 0;
        let doc = DocGen { r: &mut r2, json5 }.doc();
        let doc2 = DocGen { r: &mut r2, json5: false }.doc();
        let (v, _) = random_value(&mut r, &mut DocGen { r: &mut r2, json5: false });
        let known = known_paths(&c, &doc);
        let (p1, p2) = (path_into(&mut r, &known), path_into(&mut r, &known));
        let args = [Value::Text(doc.into()), p1, v, p2, Value::Text(doc2.into())];
        for t in TEMPLATES {
            let used = (1..=args.len()).filter(|i| t.contains(&format!("?{i}"))).max().unwrap_or(0);
            let args = &args[..used];
            let (a, b) = (our_value(&mut s, t, args), sqlite_value(&c, t, args));
            checked += 1;
            let same = match (&a, &b) {
                (Ok(x), Ok(y)) => row_key(x) == row_key(y),
                (Err(x), Err(y)) => x == y,
                _ => false,
            };
            if !same {
                diffs.push(format!("{t}\n  args:   {args:?}\n  ours:   {a:?}\n  sqlite: {b:?}"));
            }
        }
    }
    for d in diffs.iter().take(30) {
        println!("{d}\n");
    }
    assert!(diffs.is_empty(), "{} of {checked} random evaluations differ from SQLite", diffs.len());
}
