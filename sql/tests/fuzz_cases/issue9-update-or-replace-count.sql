-- Issue 9 (fuzzer): UPDATE OR REPLACE counts the rows it updated; a row an earlier row's REPLACE deleted is not
-- updated (nor brought back), as in SQLite.
CREATE TABLE t(a UNIQUE, b)
----
INSERT INTO t VALUES (1, 1), (2, 2), (3, 3)
----
UPDATE OR REPLACE t SET a = a + 1
----
SELECT * FROM t
----
SELECT changes()
----
UPDATE OR REPLACE t SET a = 5
----
SELECT * FROM t
----
CREATE TABLE u(a PRIMARY KEY, b) WITHOUT ROWID
----
INSERT INTO u VALUES (1, 1), (2, 2), (3, 3), (4, 4)
----
UPDATE OR REPLACE u SET a = a + 1 WHERE a < 4
----
SELECT * FROM u
----
UPDATE OR REPLACE u SET a = 9
----
SELECT * FROM u
