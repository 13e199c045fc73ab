SELECT count(*) FROM tablet WHERE uf * 2 + nf5 > 195;
