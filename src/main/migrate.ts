/** `npm run migrate`: applies pending migrations to DATABASE_URL and exits. */
import { migrate, openDatabase } from "../adapters/postgres/orm.js";

const url = process.env.DATABASE_URL;
if (!url) {
  process.stderr.write("configuration error: DATABASE_URL: is required\n");
  process.exit(1);
}
const orm = await openDatabase(url, 2);
try {
  const applied = await migrate(orm);
  process.stdout.write(applied.length ? `applied: ${applied.join(", ")}\n` : "database is up to date\n");
} finally {
  await orm.close();
}
