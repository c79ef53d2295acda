-- Issue 9: select-item names with multi-byte characters near the truncation points panicked.
SELECT 'São Paulo' AS city;
SELECT '😀' AS o0;
SELECT upper('ção');
SELECT 'ção', 'São Paulo', '😀😀😀', 'a😀';
CREATE TABLE t(a);
INSERT INTO t VALUES ('x');
SELECT a || 'São Paulo😀' FROM t
