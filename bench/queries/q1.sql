SELECT count(*), sum(id) FROM tablet WHERE ui = 42 AND ni5 = 0 AND ni20 > 0;
