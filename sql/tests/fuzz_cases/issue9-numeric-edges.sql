-- Issue 9: abs('1e400'), upper() of a 9.2e18 REAL in an INTEGER column, CAST(avg(substr(a,1,1)) AS BLOB).
SELECT abs('1e400'), abs('-1e400'), abs(-9223372036854775807), abs('x')
----
CREATE TABLE t(a INTEGER)
----
INSERT INTO t VALUES (9.2e18), (9.3e18), (-9.3e18), ('12'), ('abc')
----
SELECT typeof(a), upper(a), lower(a), length(a) FROM t
----
SELECT CAST(avg(substr(a,1,1)) AS BLOB), typeof(CAST(avg(substr(a,1,1)) AS BLOB)) FROM t
