SELECT count(*) FROM tablet WHERE uf + nf20 / 2 >= 0 AND NOT (nf5 >= 2.5 AND nf5 < 3.5);
