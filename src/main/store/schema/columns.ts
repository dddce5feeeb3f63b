/** Every row that belongs to an environment says which, and only these three exist. */
export const environment = "environment TEXT NOT NULL CHECK (environment IN ('sandbox', 'test', 'live'))";
