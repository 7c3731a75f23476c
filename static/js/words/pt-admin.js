// Portuguese (Brazilian) for the admin pages' scripts (static/js/admin.js, admin-game.js,
// admin-import.js). admin.js adds it to the shared catalog (addMessages); the forms an entry
// may take are those of static/js/words.js. Refusals are worded by the "error.<code>" entries
// of pt-server.js, which come with these.
import server from "./pt-server.js";

export default {
  ...server,

  // ------------------------------------------------------------ seats and actions
  "admin.seat": "Lugar {seat}",
  "admin.seat.lower": "lugar {seat}",
  "admin.action.pick_wonder": "{who} escolheu {wonder}",
  "admin.action.build": "{who} construiu {card}",
  "admin.action.discard": "{who} descartou {card} por moedas",
  "admin.action.build_wonder": "{who} construiu {wonder} com {card}",
  "admin.action.choose_progress": "{who} pegou o marcador de progresso {token}",
  "admin.action.destroy": "{who} fez o adversário descartar {card}",
  "admin.action.build_from_discard": "{who} construiu {card} da pilha de descarte",
  "admin.action.choose_starter": "{who} escolheu {whom} para começar a Era",
  "admin.action.other": "{who}: {action}",

  // ------------------------------------------------------------ what the players cannot see
  "admin.age.age1": "Era I",
  "admin.age.age2": "Era II",
  "admin.age.age3": "Era III",
  "admin.hidden.none": "nenhum",
  "admin.hidden.nothing": "Nada a mostrar.",
  "admin.hidden.library_draw": "A Grande Biblioteca: {name} escolhe entre",
  "admin.hidden.draft_round_2": "Segunda rodada de seleção (ainda não oferecida)",
  "admin.hidden.removed": "Retiradas na preparação, {age}",
  "admin.hidden.removed_guilds": "Grêmios fora do jogo",
  "admin.hidden.box_tokens": "Marcadores de progresso na caixa",
  "admin.hidden.unused_wonders": "Maravilhas fora do jogo",
  "admin.hidden.deck": {
    one: "{age}, ainda por dispor ({n} carta, posição por posição)",
    many: "{age}, ainda por dispor ({n} cartas, posição por posição)",
    other: "{age}, ainda por dispor ({n} cartas, posição por posição)",
  },

  // ------------------------------------------------------------ a game, action by action
  "admin.step.after": "Após a ação {n} de {last}: {action}",
  "admin.step.setup": "Preparação, antes da primeira ação ({last} no total)",
  "admin.abort.no_reason": "Informe um motivo: os dois jogadores vão lê-lo.",
  "admin.abort.confirm": "Cancelar de vez a partida {game}? Os dois jogadores serão avisados: “{reason}”.",

  // ------------------------------------------------------------ importing a record
  "admin.import.empty": "Escolha um arquivo de registro ou cole um registro.",
  "admin.import.not_json": "Isto não é JSON: um registro é o arquivo JSON que a página de uma partida exporta.",
  "admin.import.done": "Importada como partida {game}.",
};
