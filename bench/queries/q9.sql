SELECT count(*), sum(id) FROM tablet WHERE (ui > -90 AND ni5 BETWEEN -10 AND 10) OR (ni20 * ni20 > 400 AND ui < 0);
