// Zod compiles fast parsers with `new Function` when the page allows eval; the pages' CSP does not (no
// 'unsafe-eval'), and zod's probe alone would log a CSP violation. Parse without code generation instead.
import { z } from "zod";

z.config({ jitless: true });
