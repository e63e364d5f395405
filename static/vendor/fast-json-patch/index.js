export * from './module/core.js';
export * from './module/duplex.js';
export {
    PatchError as JsonPatchError,
    _deepClone as deepClone,
    escapePathComponent,
    unescapePathComponent
} from './module/helpers.js';


/**
 * Default export for backwards compat
 */

import * as core from './module/core.js';
import * as duplex from './module/duplex.js';
import {
    PatchError as JsonPatchError,
    _deepClone as deepClone,
    escapePathComponent,
    unescapePathComponent
} from './module/helpers.js';

export default Object.assign({}, core, duplex, {
    JsonPatchError,
    deepClone,
    escapePathComponent,
    unescapePathComponent
});