CREATE TABLE counters (id bigint PRIMARY KEY, name varchar(50) NOT NULL, n int NOT NULL);
CREATE TABLE versioned_counters (id bigint PRIMARY KEY, n int NOT NULL, version int NOT NULL);
-- no unique index on name: the check-then-insert race is the point
CREATE TABLE members (id bigserial PRIMARY KEY, name varchar(50) NOT NULL);
-- issue 13's Java-level examples: a show with one seat, a product behind caches
CREATE TABLE bookings (id bigserial PRIMARY KEY, show_id bigint NOT NULL, who varchar(50) NOT NULL);
CREATE TABLE products (id bigint PRIMARY KEY, name varchar(50) NOT NULL, price int NOT NULL);
-- ids from a sequence in blocks of 5, kept in memory by Hibernate's pooled optimizer
CREATE TABLE comments (id bigint PRIMARY KEY, text varchar(50) NOT NULL);
CREATE SEQUENCE comments_seq INCREMENT BY 5;
-- rows Hibernate keeps in its second-level cache
CREATE TABLE tallies (id bigint PRIMARY KEY, n int NOT NULL);
CREATE TABLE vouchers (id uuid PRIMARY KEY, code varchar(20) NOT NULL);
