// Persistent settings the service creates for itself on first start (the
// address-hash salt, the server secret): the first writer wins across
// processes, so every replica uses the same value.
import type { SqlDatabase } from '../sql.ts';

export type SettingsRepository = ReturnType<typeof settingsRepository>;

export function settingsRepository(db: SqlDatabase) {
  const read = async (name: string) => db.all<{ value: string }>('SELECT value FROM settings WHERE name = ?', [name]);
  return {
    /** The setting `name`; `create` runs when it is absent, and the first writer wins. */
    async getOrCreate(name: string, create: () => string): Promise<string> {
      const existing = await read(name);
      if (existing.length) return existing[0].value;
      await db.run('INSERT INTO settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO NOTHING', [name, create()]);
      return (await read(name))[0].value;
    },
  };
}
