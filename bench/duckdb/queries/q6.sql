SELECT count(*) FROM tablet WHERE CAST(nf20 AS DOUBLE) * 3 - CAST(nf5 AS DOUBLE) > 75 OR uf > 97.5 OR uf < -97.5;
