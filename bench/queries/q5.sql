SELECT count(*) FROM tablet WHERE ni20 * 3 - ni5 > 75 OR ui IN (-100, -50, 0, 50, 100);
