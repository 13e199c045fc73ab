SELECT count(*) FROM tablet WHERE ui * 2 + ni5 > 195;
