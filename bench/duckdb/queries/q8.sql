SELECT count(*) FROM tablet WHERE CAST(uf AS DOUBLE) + CAST(nf20 AS DOUBLE) / 2 >= 0 AND NOT (nf5 >= 2.5 AND nf5 < 3.5);
