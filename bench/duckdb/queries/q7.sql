SELECT count(*) FROM tablet WHERE ui + ni20 // 2 >= 0 AND ni5 <> 3;
