import type { Catalogue } from './catalogue/catalogue.js';
import { cy } from './catalogue/cy.js';
import { en } from './catalogue/en.js';
import { es } from './catalogue/es.js';
import { pa } from './catalogue/pa.js';
import { pl } from './catalogue/pl.js';
import { pt } from './catalogue/pt.js';
import { ro } from './catalogue/ro.js';
import { ur } from './catalogue/ur.js';
import type { LanguageCode } from './languages.js';

// Every language's catalogue by its code: a language in languages.ts without one fails the typecheck here.
export const CATALOGUES: Readonly<Record<LanguageCode, Catalogue>> = { en, pl, ro, pa, ur, pt, es, cy };
