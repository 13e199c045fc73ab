SELECT count(*), sum(id) FROM tablet WHERE (uf > -90 AND nf5 BETWEEN -10 AND 10) OR (nf20 * nf20 > 400 AND uf < 0);
