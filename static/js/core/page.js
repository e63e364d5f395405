// Plain pages (rules): translate, language switch, the ingredient legend.
import { h } from "./dom.js";
import { mountSwitch, onLangChange, ing, translate } from "../lang/i18n.js";
import { icon, installSprite } from "./icons.js";
import { rulesData } from "./rules-data.js";

function legend() {
  const list = document.getElementById("legend");
  if (!list) return;
  list.replaceChildren(...rulesData().ingredients.map((name) => h("li", {}, icon(name), h("span", { text: ing(name) }))));
}

installSprite();
translate(document);
mountSwitch(document.getElementById("lang-switch"));
legend();
onLangChange(legend);
