-- seed 1796160353807535732: OursFailed at statement 2 (memory store)
--     sqlite: 0 rows
--     asadb:  Err("malformed JSON")
--   shrunk session:
--     CREATE TABLE t1(c0 NUMERIC, c1 FLOAT, c2 BOOLEAN UNIQUE, PRIMARY KEY (c1)) WITHOUT ROWID;
--     INSERT OR REPLACE INTO t1 VALUES ('', 'ABC', '0'), ('Müller', '[a-c]*', '%b%'), ('x', 'abc', 2147483647), (3.14159, 9.21e18, 7), ('X', CAST(X'41FF42' AS TEXT), 'abc');
--     SELECT a01.id FROM t1 AS a00 LEFT JOIN json_each(a00.c2) AS a01 ON 1 LEFT OUTER JOIN t1 AS a02 ON NULL WHERE a01.value IN () GROUP BY a01.id;
CREATE TABLE t1(c0 NUMERIC, c1 FLOAT, c2 BOOLEAN UNIQUE, PRIMARY KEY (c1)) WITHOUT ROWID
----
INSERT OR REPLACE INTO t1 VALUES ('', 'ABC', '0'), ('Müller', '[a-c]*', '%b%'), ('x', 'abc', 2147483647), (3.14159, 9.21e18, 7), ('X', CAST(X'41FF42' AS TEXT), 'abc')
----
SELECT a01.id FROM t1 AS a00 LEFT JOIN json_each(a00.c2) AS a01 ON 1 LEFT OUTER JOIN t1 AS a02 ON NULL WHERE a01.value IN () GROUP BY a01.id
