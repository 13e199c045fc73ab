SELECT count(*) FROM tablet WHERE nf20 * 3 - nf5 > 75 OR uf > 97.5 OR uf < -97.5;
