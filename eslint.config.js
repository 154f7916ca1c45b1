// ESLint for the page's JavaScript (src/cardtable/server/static/js): the recommended rules, in
// the browser, as ES modules. `make lint` runs it with TypeScript's type check.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/cardtable/server/static/js/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: globals.browser,
    },
    rules: {
      "no-unused-vars": ["error", { args: "none", caughtErrors: "none" }],
    },
  },
];
