// The leaderboard and profile pages: their texts in the reader's language.
import { mountSwitch, onLangChange } from "../lang/i18n.js";
import { installSprite } from "../core/icons.js";
import { localize } from "../lang/localize.js";

installSprite();
localize();
mountSwitch(document.getElementById("lang-switch"));
onLangChange(localize);
