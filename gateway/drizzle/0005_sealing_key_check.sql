CREATE TABLE "sealing_key_check" (
	"id" integer PRIMARY KEY NOT NULL,
	"sealed" text NOT NULL,
	"created_at" bigint NOT NULL
);
