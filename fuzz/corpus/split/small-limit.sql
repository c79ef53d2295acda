
SELECT 1; SELECT 'a much longer statement than the limit allows';SELECT 3;