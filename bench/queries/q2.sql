SELECT count(*), sum(id) FROM tablet WHERE uf BETWEEN 41.5 AND 42.5 AND nf5 >= -0.5 AND nf5 < 0.5 AND nf20 > 0;
