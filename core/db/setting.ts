/**
 * The data layer's one setting (DATABASE_URL, read by core/config/config.ts): which engine and
 * where. Declared here so the data layer needs nothing of the rest of the configuration.
 */
export type DatabaseSetting = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string };
