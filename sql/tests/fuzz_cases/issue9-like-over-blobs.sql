-- Issue 9: LIKE and GLOB over blobs and numbers; DELETE … LIKE '%' over a blob.
CREATE TABLE t(a)
----
INSERT INTO t VALUES (X'41'), (X''), (X'00'), (1), (1.5), (NULL), ('abc'), (-0.0)
----
SELECT a, a LIKE '%', a LIKE 'A', a GLOB '*', a GLOB '1*', a LIKE '1._' FROM t
----
DELETE FROM t WHERE a LIKE '%'
----
SELECT typeof(a), a FROM t
