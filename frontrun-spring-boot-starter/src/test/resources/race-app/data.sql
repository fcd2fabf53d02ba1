INSERT INTO counters (id, name, n) VALUES (1, 'visits', 0), (2, 'likes', 0);
INSERT INTO versioned_counters (id, n, version) VALUES (1, 0, 0);
INSERT INTO members (name) VALUES ('alice');
INSERT INTO products (id, name, price) VALUES (1, 'kettle', 100);
INSERT INTO tallies (id, n) VALUES (1, 0), (2, 0);
INSERT INTO gift_cards (id, balance) VALUES (1, 30);
